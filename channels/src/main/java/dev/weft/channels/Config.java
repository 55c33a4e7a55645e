package dev.weft.channels;

/**
 * The tuning properties, read and validated together, once: {@link ChannelState}'s static
 * initializer reads {@link #SEGMENT_SIZE}, so a bad value fails the first channel's creation
 * (with an {@link ExceptionInInitializerError} whose cause names the property), never an operation
 * half-way through a wait. A malformed or out-of-range value is never silently replaced.
 */
final class Config {
    private Config() {}

    /** Cells per segment, {@code weft.segmentSize} (default 32; tests use 1 or 2). */
    static final int SEGMENT_SIZE = intProperty("weft.segmentSize", 32, 1, 1024);

    /**
     * Buffered channels whose capacity exceeds this many segments have segment births, {@code
     * weft.births.aboveSegments} (default 4; see {@code SegmentBirth}).
     */
    static final int BIRTHS_ABOVE_SEGMENTS = intProperty("weft.births.aboveSegments", 4, 1, 1 << 20);

    /**
     * The ceiling of a virtual thread's spin budget, {@code weft.spins.virtual} (default 256),
     * except in channels with a large buffer.
     */
    static final int VIRTUAL_SPINS = intProperty("weft.spins.virtual", 256, 0, 1 << 20);

    /**
     * The same ceiling in a channel whose buffer holds {@code Waiting.LARGE_BUFFER} values or more,
     * or is unlimited: {@code weft.spins.virtualBuffered} (default: {@link #VIRTUAL_SPINS}; 0 parks
     * at once, see {@code Waiting}).
     */
    static final int VIRTUAL_SPINS_BUFFERED = intProperty("weft.spins.virtualBuffered", VIRTUAL_SPINS, 0, 1 << 20);

    /**
     * Whether the virtual threads of a pair (one waiting thread on each side) park at once in a
     * channel with a large buffer, {@code weft.spins.repeatWaiterParks} (1, the default, or 0; see
     * {@code Spin#parkAtOnce}).
     */
    static final boolean REPEAT_WAITER_PARKS = intProperty("weft.spins.repeatWaiterParks", 1, 0, 1) == 1;

    /**
     * Whether the spin budget that new channels start with is learnt JVM-wide from the waits of
     * new channels, {@code weft.spins.learnStart} (1, the default, or 0: every channel starts at
     * {@code Waiting.INITIAL_SPINS}; see {@code Spin.Start}).
     */
    static final boolean LEARN_SPIN_START = intProperty("weft.spins.learnStart", 1, 0, 1) == 1;

    /**
     * How long a platform thread spins before it parks, in ns: {@code weft.spinMicros.platform} us
     * (default 50, at most 10,000), or 0 on a machine with one CPU (validated there too).
     */
    static final long PLATFORM_SPIN_NANOS = platformSpinNanos(intProperty("weft.spinMicros.platform", 50, 0, 10_000));

    private static long platformSpinNanos(int micros) {
        return Runtime.getRuntime().availableProcessors() == 1 ? 0L : micros * 1_000L;
    }

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
