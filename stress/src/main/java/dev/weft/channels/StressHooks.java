package dev.weft.channels;

/**
 * Bridge from the stress module to weft's package-private test hooks.
 *
 * <p>This class lives in package {@code dev.weft.channels} but in the {@code weft-stress} jar, so it
 * only works when both jars are on the <em>class path</em> (split packages are not allowed on the
 * module path). jcstress, surefire (with {@code useModulePath=false}) and {@code stress/run.sh} all
 * use the class path.
 */
public final class StressHooks {
    private StressHooks() {}

    /** The effective segment size ({@code -Dweft.segmentSize}, default 32). */
    public static int segmentSize() {
        return Channel.segmentSize();
    }

    /**
     * The number of segments currently reachable from {@code ch}.
     *
     * @param ch the channel
     * @return the number of segments from the oldest one a pointer references to the tail
     */
    public static int reachableSegments(Channel<?> ch) {
        return ch.reachableSegments();
    }
}
