package dev.weft.channels;

import dev.weft.channels.internal.StressAccess;
import java.util.function.ObjLongConsumer;

/**
 * The package-private hooks handed to {@link StressAccess} (the qualified export for the stress
 * module and the memory tests). Installed once, from {@link ChannelState}'s static initializer.
 */
final class InternalHooks implements StressAccess.Hooks {
    private InternalHooks() {}

    /** Hands the hooks over; called once, when the channel classes are initialized. */
    static void install() {
        StressAccess.install(new InternalHooks());
    }

    @Override
    public int segmentSize() {
        return Segment.SIZE;
    }

    @Override
    public int idleSegments() {
        return ChannelState.IDLE_SEGMENTS;
    }

    @Override
    public int idleSegmentBound(Channel<?> ch) {
        return ch.idleSegmentBound();
    }

    @Override
    public int reachableSegments(Channel<?> ch) {
        return ch.reachableSegments();
    }

    @Override
    public void forEachPointerSegment(Channel<?> ch, ObjLongConsumer<Object> action) {
        accept(ch.lvSendSegment(), action);
        accept(ch.lvReceiveSegment(), action);
        accept(ch.lvBufferEndSegment(), action);
    }

    private static void accept(Segment s, ObjLongConsumer<Object> action) {
        if (s != null) {
            action.accept(s, s.id);
        }
    }
}
