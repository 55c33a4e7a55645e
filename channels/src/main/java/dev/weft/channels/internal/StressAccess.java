package dev.weft.channels.internal;

import dev.weft.channels.Channel;
import java.lang.invoke.MethodHandles;
import java.util.function.ObjLongConsumer;

/**
 * Not API: the package-private hooks of {@code dev.weft.channels} that the stress module and the
 * memory tests need, reachable from another package.
 *
 * <p>The hooks live in package {@code dev.weft.channels}, where they stay package-private. A
 * package-private class there implements {@link Hooks} and hands an instance to {@link
 * #install(Hooks)} from a static initializer of the channel classes; the static methods here
 * delegate to it. The module exports this package only to {@code dev.weft.stress}.
 */
public final class StressAccess {
    /** Installed once, when the channel classes are initialized. */
    private static volatile Hooks hooks;

    private StressAccess() {}

    /**
     * Not API: what {@code dev.weft.channels} offers to {@link StressAccess}. Implemented only by
     * the library.
     */
    public interface Hooks {
        /**
         * The effective segment size.
         *
         * @return the number of cells per segment
         */
        int segmentSize();

        /**
         * The segments an idle channel may keep besides those its buffer spans.
         *
         * @return the library's constant
         */
        int idleSegments();

        /**
         * The most segments {@code ch} keeps reachable when no operation is in progress.
         *
         * @param ch the channel
         * @return the bound
         */
        int idleSegmentBound(Channel<?> ch);

        /**
         * The segments reachable along {@code next} from the oldest one a pointer of {@code ch}
         * references.
         *
         * @param ch the channel
         * @return the count
         */
        int reachableSegments(Channel<?> ch);

        /**
         * Passes each segment the send, receive and buffer-end pointers of {@code ch} reference
         * now (a segment may come more than once), with its id, to {@code action}.
         *
         * @param ch the channel
         * @param action receives the segment and its id (unique within the channel)
         */
        void forEachPointerSegment(Channel<?> ch, ObjLongConsumer<Object> action);
    }

    /**
     * Called once by the library when its channel classes are initialized.
     *
     * @param h the library's hooks
     * @throws IllegalArgumentException if {@code h} is not the library's own implementation
     * @throws IllegalStateException if hooks are already installed
     */
    public static synchronized void install(Hooks h) {
        Class<?> c = h.getClass();
        if (c.getModule() != StressAccess.class.getModule()
                || !c.getPackageName().equals(Channel.class.getPackageName())) {
            throw new IllegalArgumentException("only weft itself installs its hooks");
        }
        if (hooks != null) {
            throw new IllegalStateException("weft's hooks are already installed");
        }
        hooks = h;
    }

    private static Hooks hooks() {
        Hooks h = hooks;
        if (h == null) {
            try {
                MethodHandles.lookup().ensureInitialized(Channel.class);
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
            h = hooks;
            if (h == null) {
                throw new IllegalStateException("weft's channel classes did not install their hooks");
            }
        }
        return h;
    }

    /**
     * The effective segment size (the {@code weft.segmentSize} property, default 32).
     *
     * @return the number of cells per segment
     */
    public static int segmentSize() {
        return hooks().segmentSize();
    }

    /**
     * The segments an idle channel may keep reachable besides those its buffer spans (the
     * sender, receiver and buffer-end positions, plus one).
     *
     * @return the library's constant
     */
    public static int idleSegments() {
        return hooks().idleSegments();
    }

    /**
     * The most segments {@code ch} keeps reachable when no operation is in progress: the bound the
     * memory checks hold it to ({@link #idleSegments()} plus the segments a buffer spans).
     *
     * @param ch the channel
     * @return the bound
     */
    public static int idleSegmentBound(Channel<?> ch) {
        return hooks().idleSegmentBound(ch);
    }

    /**
     * The number of segments reachable along {@code next} from the oldest segment a pointer of
     * {@code ch} references (blind to what {@code prev} keeps alive; see {@link SegmentWatch}).
     *
     * @param ch the channel
     * @return the count
     */
    public static int reachableSegments(Channel<?> ch) {
        return hooks().reachableSegments(ch);
    }

    /**
     * Passes each segment the send, receive and buffer-end pointers of {@code ch} reference now,
     * with its id, to {@code action}. The segments are opaque: hold them only weakly.
     *
     * @param ch the channel
     * @param action receives the segment and its id (unique within the channel)
     */
    public static void forEachPointerSegment(Channel<?> ch, ObjLongConsumer<Object> action) {
        hooks().forEachPointerSegment(ch, action);
    }
}
