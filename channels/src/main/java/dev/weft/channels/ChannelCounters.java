package dev.weft.channels;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The channel's hot counters and segment pointers, each written by a different side, padded onto
 * separate cache lines through a class hierarchy (the JVM lays out superclass fields first, so the
 * padding cannot be reordered between them).
 *
 * <p>Accessor convention for every memory-ordered field in this package: {@code x()} is a volatile
 * read, {@code casX(e, u)} a compare-and-set, {@code getAndAddX(d)} / {@code getAndIncX()} an atomic
 * add returning the previous value, {@code setX(v)} a volatile write.
 */
abstract class ChannelCounters extends Pad3 {
    /** Bit set in {@link #senders} when the channel is closed (done or error). */
    static final long CLOSED_BIT = 1L << 62;
    /** Bit set in {@link #senders}, together with {@link #CLOSED_BIT}, when closed by an error. */
    static final long ERROR_BIT = 1L << 61;
    /** The sender counter proper: the low bits of {@link #senders}. */
    static final long COUNT_MASK = ERROR_BIT - 1;

    private static final VarHandle SENDERS;
    private static final VarHandle RECEIVERS;
    private static final VarHandle BUFFER_END;
    private static final VarHandle SEND_SEGMENT;
    private static final VarHandle RECEIVE_SEGMENT;
    private static final VarHandle BUFFER_END_SEGMENT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SENDERS = l.findVarHandle(SendersField.class, "senders", long.class);
            RECEIVERS = l.findVarHandle(ReceiversField.class, "receivers", long.class);
            BUFFER_END = l.findVarHandle(BufferEndField.class, "bufferEnd", long.class);
            SEND_SEGMENT = l.findVarHandle(SendersField.class, "sendSegment", Segment.class);
            RECEIVE_SEGMENT = l.findVarHandle(ReceiversField.class, "receiveSegment", Segment.class);
            BUFFER_END_SEGMENT =
                    l.findVarHandle(BufferEndField.class, "bufferEndSegment", Segment.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    ChannelCounters(Segment first, long initialBufferEnd, boolean buffered) {
        sendSegment = first;
        receiveSegment = first;
        bufferEndSegment = buffered ? first : null;
        bufferEnd = initialBufferEnd;
    }

    // ---- senders: written by senders (FAA) and by close (closed bits) -----------------------

    final long senders() {
        return senders;
    }

    final long getAndIncSenders() {
        return (long) SENDERS.getAndAdd(this, 1L);
    }

    final boolean casSenders(long expected, long update) {
        return SENDERS.compareAndSet(this, expected, update);
    }

    final long getAndOrSenders(long bits) {
        return (long) SENDERS.getAndBitwiseOr(this, bits);
    }

    final Segment sendSegment() {
        return sendSegment;
    }

    final boolean casSendSegment(Segment expected, Segment update) {
        return SEND_SEGMENT.compareAndSet(this, expected, update);
    }

    // ---- receivers: written by receivers (FAA) and by error (ERROR_BIT) --------------------

    /** The receiver count (without {@code ERROR_BIT}). */
    final long receivers() {
        return receivers & COUNT_MASK;
    }

    /** The whole word: the count and {@code ERROR_BIT}. */
    final long receiversWord() {
        return receivers;
    }

    /** Returns the whole previous word (count and {@code ERROR_BIT}). */
    final long getAndIncReceivers() {
        return (long) RECEIVERS.getAndAdd(this, 1L);
    }

    /** CAS on the whole word (count and {@code ERROR_BIT}). */
    final boolean casReceivers(long expected, long update) {
        return RECEIVERS.compareAndSet(this, expected, update);
    }

    /** Returns the whole previous word. */
    final long getAndOrReceivers(long bits) {
        return (long) RECEIVERS.getAndBitwiseOr(this, bits);
    }

    final Segment receiveSegment() {
        return receiveSegment;
    }

    final boolean casReceiveSegment(Segment expected, Segment update) {
        return RECEIVE_SEGMENT.compareAndSet(this, expected, update);
    }

    // ---- buffer end: written by receivers expanding the buffer (FAA) ------------------------

    final long bufferEnd() {
        return bufferEnd;
    }

    final long getAndIncBufferEnd() {
        return (long) BUFFER_END.getAndAdd(this, 1L);
    }

    final boolean casBufferEnd(long expected, long update) {
        return BUFFER_END.compareAndSet(this, expected, update);
    }

    final Segment bufferEndSegment() {
        return bufferEndSegment;
    }

    final boolean casBufferEndSegment(Segment expected, Segment update) {
        return BUFFER_END_SEGMENT.compareAndSet(this, expected, update);
    }
}

@SuppressWarnings("unused")
abstract class Pad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

abstract class SendersField extends Pad0 {
    /**
     * Invariant: the low bits ({@code COUNT_MASK}) are the index of the next sender's cell: they
     * count send attempts (also those refused after closing) plus cells skipped in removed
     * segments; they only grow. {@code CLOSED_BIT} and {@code ERROR_BIT} are set once, atomically,
     * by closing.
     */
    volatile long senders;

    /** Invariant: a segment with {@code id <= (senders & COUNT_MASK) / SIZE}; only moves forward. */
    volatile Segment sendSegment;
}

@SuppressWarnings("unused")
abstract class Pad1 extends SendersField {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

abstract class ReceiversField extends Pad1 {
    /**
     * Invariant: the low bits ({@code COUNT_MASK}) are the index of the next receiver's cell; they
     * count receive attempts plus cells skipped in removed segments, and only grow. {@code
     * ERROR_BIT} is set once, atomically, by {@code error()} (or a thread helping it): that OR is
     * the error's linearization point, so a receiver learns from its own FAA whether it came
     * before the error (it may still take its cell's value) or after (it reports the error).
     */
    volatile long receivers;

    /** Invariant: a segment with {@code id <= receivers / SIZE}; only moves forward. */
    volatile Segment receiveSegment;
}

@SuppressWarnings("unused")
abstract class Pad2 extends ReceiversField {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

abstract class BufferEndField extends Pad2 {
    /**
     * Buffered channels only. Invariant: a send to a cell below {@code bufferEnd} completes without
     * waiting; it starts at the capacity and each finished receive cell moves it forward by one
     * cell that can hold a value (cells of withdrawn senders are skipped, also by jumping over
     * removed segments, whose cells not yet passed are all withdrawn senders). Only grows.
     */
    volatile long bufferEnd;

    /**
     * Invariant: buffered channels: a segment with {@code id <= bufferEnd / SIZE}, only moves
     * forward; {@code null} for rendezvous and unlimited channels (so it pins no segment).
     */
    volatile Segment bufferEndSegment;
}

@SuppressWarnings("unused")
abstract class Pad3 extends BufferEndField {
    long p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f;
}
