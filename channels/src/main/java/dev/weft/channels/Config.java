package dev.weft.channels;

/**
 * The tuning properties weft reads once, when a class that uses one is initialized ({@code
 * weft.segmentSize}, {@code weft.spins.virtual}, {@code weft.spinMicros.platform}). A malformed or
 * out-of-range value is an error that names the property, never silently replaced.
 */
final class Config {
    private Config() {}

    /**
     * The integer system property {@code name}, or {@code def} when it is not set.
     *
     * @throws IllegalArgumentException if it is set but not an integer in {@code min..max}
     */
    static int intProperty(String name, int def, int min, int max) {
        String v = System.getProperty(name);
        if (v == null) {
            return def;
        }
        int n;
        try {
            n = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    name + " must be an integer in " + min + ".." + max + ", was '" + v + "'", e);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(name + " must be an integer in " + min + ".." + max + ", was " + n);
        }
        return n;
    }
}
