package dev.weft.bench;

/**
 * Makes jox channels of one jox version. Public, like {@link Chan} and {@link SelectChan}, because
 * jox 1.1.1's adapters implement it from another class loader (see {@link Jox111}).
 */
public interface JoxFactory {

    /** A jox channel as a {@link Chan}: rendezvous for capacity 0, buffered otherwise. */
    Chan chan(int capacity);

    /** A rendezvous jox channel received from through select. */
    SelectChan select();

    /** {@code jox}: the 1.0.1 dependency; {@code jox111}: jox 1.1.1 in its own class loader. */
    static JoxFactory forImpl(String impl) {
        return switch (impl) {
            case "jox" -> JoxAdapters.DEPENDENCY;
            case "jox111" -> Jox111.factory();
            default -> throw new IllegalArgumentException("not a jox impl: " + impl);
        };
    }
}
