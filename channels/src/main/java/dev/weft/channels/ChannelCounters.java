package dev.weft.channels;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The channel's hot counters and segment pointers, and the moves of the segment pointers. The
 * words each side writes lie apart from the other side's and from the read-mostly fields: the
 * senders' ({@code senders}, {@code sendSegment}) and the receivers' ({@code receivers}, {@code
 * receiveSegment}, and {@code bufferEnd} and {@code bufferEndSegment}, which a receive's buffer
 * expansion moves right after the same receive moved {@code receivers}; only a withdrawing
 * sender's expansion, a rare path, moves them from the other side; a sender whose cell is not
 * yet marked {@code IN_BUFFER} reads {@code bufferEnd}).
 *
 * <p><b>Layout.</b> Padding through a class hierarchy: the JVM lays out a superclass's fields
 * before its subclasses', but since JDK 15 it fills a 4-byte gap that a superclass's fields left
 * with a small field of a subclass, so the result depends on the header size. With the default
 * 12-byte header (JOL, JDK 25): {@code sendSegment} in the header's gap at offset 12, {@code
 * senders} at 80, the receivers' four words at 152-176, the read-mostly fields from 240; {@code
 * ChannelLayoutTest} checks with the running JVM's offsets that the groups are a line apart.
 * With compact object headers ({@code -XX:+UseCompactObjectHeaders}) the JVM puts {@code
 * receiveSegment} beside {@code senders} and {@code capacity} beside {@code bufferEndSegment}, as
 * it did before stop 33; an {@code int} in each pad fixed that but made request-reply 1.11x
 * slower with the default header, so it was not kept (docs/PERFORMANCE.md, stop 33). The pads
 * are 64 bytes, one line, not 128 against the adjacent-line prefetcher: with four 128-byte pads
 * the channel object was 616 bytes instead of 296, and creating channels is part of many
 * workloads (docs/PERFORMANCE.md, stop 33, has the measurements and what they left unmeasured).
 * The channel's end is not padded: the read-mostly fields may share a line with the next object.
 *
 * <p>Accessor names say the memory mode (the convention of the whole package): {@code lvX()} is a
 * volatile load, {@code lpX()} a plain load, {@code svX(v)} a volatile store, {@code soX(v)} a
 * release store, {@code spX(v)} a plain store, {@code casX(e, u)} a compare-and-set, {@code
 * caxX(e, u)} a compare-and-exchange (returns the value it found), {@code getAndIncX()} / {@code
 * getAndOrX(b)} an atomic read-modify-write returning the previous value.
 */
abstract class ChannelCounters extends Pad2 {
    /** Bit set in {@link #senders} when the channel is closed (done or error). */
    static final long CLOSED_BIT = 1L << 62;
    /**
     * Bit set in {@link #receivers} at an error's linearization point, and in {@link #senders}
     * together with {@link #CLOSED_BIT} right after it.
     */
    static final long ERROR_BIT = 1L << 61;
    /** The counter proper: the low bits of {@link #senders} and {@link #receivers}. */
    static final long COUNT_MASK = ERROR_BIT - 1;

    private static final int SIZE = Segment.SIZE;

    private static final VarHandle SENDERS;
    private static final VarHandle RECEIVERS;
    private static final VarHandle BUFFER_END;
    private static final VarHandle SEND_SEGMENT;
    private static final VarHandle RECEIVE_SEGMENT;
    private static final VarHandle BUFFER_END_SEGMENT;
    private static final VarHandle BIRTH_JOURNAL;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SENDERS = l.findVarHandle(SendersField.class, "senders", long.class);
            RECEIVERS = l.findVarHandle(ReceiversField.class, "receivers", long.class);
            BUFFER_END = l.findVarHandle(ReceiversField.class, "bufferEnd", long.class);
            SEND_SEGMENT = l.findVarHandle(SendersField.class, "sendSegment", Segment.class);
            RECEIVE_SEGMENT = l.findVarHandle(ReceiversField.class, "receiveSegment", Segment.class);
            BUFFER_END_SEGMENT =
                    l.findVarHandle(ReceiversField.class, "bufferEndSegment", Segment.class);
            BIRTH_JOURNAL =
                    l.findVarHandle(ChannelCounters.class, "birthJournal", SegmentBirth.Record.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Channels with segment births ({@link SegmentBirth}: buffered, with a capacity above {@link
     * Config#BIRTHS_ABOVE_SEGMENTS} segments): the journal's newest record, never {@code null};
     * {@code null} for every other channel (so it also says whether a channel has births, without
     * a field more: a new channel stays 8 bytes smaller). Invariant: only moves forward along the
     * records' {@code next} links (by CAS). Read-mostly: written once per removed segment whose
     * birth held it.
     */
    private volatile SegmentBirth.Record birthJournal;

    ChannelCounters(Segment first, long initialBufferEnd, boolean buffered) {
        if (buffered && initialBufferEnd > (long) Config.BIRTHS_ABOVE_SEGMENTS * SIZE) {
            // the first segment is born with the channel: its cells below the capacity are the
            // initial buffer, which no expansion counts, so it holds no pointer reference
            first.spBirth(SegmentBirth.code((int) Math.min(initialBufferEnd, SIZE), false));
            birthJournal = new SegmentBirth.Record(-1, 0);
        }
        sendSegment = first;
        receiveSegment = first;
        bufferEndSegment = buffered ? first : null;
        bufferEnd = initialBufferEnd;
    }

    // ---- senders: written by senders (FAA) and by close (closed bits) -----------------------

    /** The whole word: the count, {@code CLOSED_BIT} and {@code ERROR_BIT}. */
    final long lvSenders() {
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

    final Segment lvSendSegment() {
        return sendSegment;
    }

    // ---- receivers: written by receivers (FAA) and by error (ERROR_BIT) --------------------

    /** The receiver count (without {@code ERROR_BIT}). */
    final long lvReceiverCount() {
        return receivers & COUNT_MASK;
    }

    /** The whole word: the count and {@code ERROR_BIT}. */
    final long lvReceivers() {
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

    final Segment lvReceiveSegment() {
        return receiveSegment;
    }

    // ---- buffer end: written by receivers expanding the buffer (FAA) ------------------------

    final long lvBufferEnd() {
        return bufferEnd;
    }

    final long getAndIncBufferEnd() {
        return (long) BUFFER_END.getAndAdd(this, 1L);
    }

    final boolean casBufferEnd(long expected, long update) {
        return BUFFER_END.compareAndSet(this, expected, update);
    }

    final Segment lvBufferEndSegment() {
        return bufferEndSegment;
    }

    // ---- the journal of births (channels with births) ---------------------------------------

    /** The journal's newest record; {@code null} for a channel without births. */
    final SegmentBirth.Record lvBirthJournal() {
        return birthJournal;
    }

    /** Whether this channel has segment births (see {@link #birthJournal}). */
    final boolean births() {
        return birthJournal != null;
    }

    final boolean casBirthJournal(SegmentBirth.Record expected, SegmentBirth.Record update) {
        return BIRTH_JOURNAL.compareAndSet(this, expected, update);
    }

    // ---- moving the segment pointers --------------------------------------------------------

    static final int POINTER_SEND = 0;
    static final int POINTER_RECEIVE = 1;
    static final int POINTER_BUFFER_END = 2;

    private Segment lvPointer(int which) {
        return switch (which) {
            case POINTER_SEND -> sendSegment;
            case POINTER_RECEIVE -> receiveSegment;
            default -> bufferEndSegment;
        };
    }

    private boolean casPointer(int which, Segment expected, Segment update) {
        return switch (which) {
            case POINTER_SEND -> SEND_SEGMENT.compareAndSet(this, expected, update);
            case POINTER_RECEIVE -> RECEIVE_SEGMENT.compareAndSet(this, expected, update);
            default -> BUFFER_END_SEGMENT.compareAndSet(this, expected, update);
        };
    }

    /** Moves a segment pointer forward to {@code to} (never back); false if {@code to} is removed. */
    private boolean moveForward(int which, Segment to) {
        while (true) {
            Segment cur = lvPointer(which);
            if (cur.id >= to.id) {
                return true;
            }
            if (!to.tryIncPointers()) {
                return false;
            }
            if (casPointer(which, cur, to)) {
                cur.decPointers();
                return true;
            }
            to.decPointers();
        }
    }

    /**
     * Finds the segment with id {@code id} (or the first alive one after it, when it was removed)
     * and moves pointer {@code which} there; {@code null} when the list is closed.
     */
    final Segment findSegment(int which, Segment start, long id) {
        return findSegment(which, start, id, false);
    }

    /**
     * {@link #findSegment(int, Segment, long)}; with {@code nextOnly} (buffer expansion in a
     * channel with births) it creates no segment but the one right after the tail, and returns
     * the tail, moving the pointer there, when segment {@code id} lies further ahead. Every
     * segment it returns, and so every segment a pointer references, is born.
     */
    final Segment findSegment(int which, Segment start, long id, boolean nextOnly) {
        while (true) {
            boolean births = births();
            Segment s = Segment.findOrCreate(start, id, nextOnly, births ? this : null);
            if (s == Segment.CLOSED_LIST) {
                return null;
            }
            if (births) {
                SegmentBirth.bear(this, s);
            }
            if (moveForward(which, s)) {
                return s;
            }
        }
    }

    /**
     * {@link #findSegment} for a sender or receiver; when it lands beyond segment {@code id} (the
     * cells in between were all cleaned and their segments removed), it moves that side's counter
     * past the skipped cells.
     */
    final Segment findSegment(boolean send, Segment start, long id) {
        Segment s = findSegment(send ? POINTER_SEND : POINTER_RECEIVE, start, id);
        if (s != null && s.id != id) {
            long target = s.id * SIZE;
            while (true) {
                long w = send ? senders : receivers;
                long update = (w & ~COUNT_MASK) | target;
                if ((w & COUNT_MASK) >= target || (send ? casSenders(w, update) : casReceivers(w, update))) {
                    break;
                }
            }
        }
        return s;
    }

    /**
     * The segment of cell {@code c}, starting from {@code seg} (the sender's or the receiver's
     * segment pointer, by {@code send}): {@code seg} itself, or the one found by {@link
     * #findSegment(boolean, Segment, long)}, which may be beyond c's (c's was removed), or {@code
     * null} when the list is closed.
     */
    final Segment segmentOf(boolean send, Segment seg, long c) {
        long id = c / SIZE;
        return seg.id == id ? seg : findSegment(send, seg, id);
    }

    /** The oldest segment any pointer references. */
    final Segment oldestSegment() {
        Segment a = sendSegment;
        Segment b = receiveSegment;
        Segment m = a.id <= b.id ? a : b;
        Segment c = bufferEndSegment; // null unless buffered
        return c != null && c.id < m.id ? c : m;
    }

    /** Segments reachable from the channel's pointers (for memory-boundedness tests). */
    final int reachableSegments() {
        int n = 0;
        for (Segment s = oldestSegment(); s != null && s != Segment.CLOSED_LIST; s = s.next()) {
            n++;
        }
        return n;
    }
}

/**
 * Padding between the object's header (and the object before it) and {@code senders} ({@code
 * sendSegment}, written once per segment by senders, sits in the header's gap).
 */
@SuppressWarnings("unused")
abstract class Pad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07;
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

/** Padding between the senders' words and the receivers'. */
@SuppressWarnings("unused")
abstract class Pad1 extends SendersField {
    long p10, p11, p12, p13, p14, p15, p16, p17;
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

    /**
     * Buffered channels only. Invariant: a send to a cell below {@code bufferEnd} completes without
     * waiting; it starts at the capacity and each finished receive cell moves it forward by one
     * cell that can hold a value (cells of withdrawn senders are skipped, also by jumping over
     * removed segments, whose cells not yet passed are all withdrawn senders). Only grows. Beside
     * {@code receivers}: the receive that moves {@code receivers} moves it next.
     */
    volatile long bufferEnd;

    /**
     * Invariant: buffered channels: a segment with {@code id <= bufferEnd / SIZE}, only moves
     * forward; {@code null} for rendezvous and unlimited channels (so it pins no segment).
     */
    volatile Segment bufferEndSegment;
}

/** Padding between the receiving side's words and the channel's read-mostly fields. */
@SuppressWarnings("unused")
abstract class Pad2 extends ReceiversField {
    long p20, p21, p22, p23, p24, p25, p26, p27;
}
