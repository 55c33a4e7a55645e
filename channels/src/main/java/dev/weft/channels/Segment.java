package dev.weft.channels;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One segment of the channel's infinite cell array: {@link #SIZE} cells, each with a state word
 * and an element slot, linked to its neighbours by {@code next} and {@code prev}.
 *
 * <p><b>Removal in O(1).</b> Each segment counts its <em>cleaned</em> cells (cells whose waiter
 * withdrew: {@code INTERRUPTED_SEND} or {@code INTERRUPTED_RCV}) and the channel pointers
 * (send, receive and buffer-end segment) that reference it. A segment with every cell cleaned and
 * no pointer is logically removed; it is then unlinked from the middle of the list through its
 * {@code prev} and {@code next} links, without a traversal. The tail is never unlinked (it is
 * unlinked once a successor is appended). Concurrent removals of neighbours help each other by
 * moving links past removed segments, as in the segment removal of Koval, Alistarh and Elizarov.
 */
final class Segment {
    /** Cells per segment; {@code weft.segmentSize} overrides it (tests use 1 or 2). */
    static final int SIZE = Config.SEGMENT_SIZE;

    private static final int POINTER_UNIT = 1 << 16;
    private static final int CLEANED_MASK = POINTER_UNIT - 1;

    private static final VarHandle CELLS;
    private static final VarHandle NEXT;
    private static final VarHandle PREV;
    private static final VarHandle CLEANED_AND_POINTERS;
    private static final VarHandle BIRTH;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CELLS = MethodHandles.arrayElementVarHandle(Object[].class);
            NEXT = l.findVarHandle(Segment.class, "next", Segment.class);
            PREV = l.findVarHandle(Segment.class, "prev", Segment.class);
            CLEANED_AND_POINTERS = l.findVarHandle(Segment.class, "cleanedAndPointers", int.class);
            BIRTH = l.findVarHandle(Segment.class, "birth", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Marks a closed list: stored in the tail's {@code next}, no segment can be appended. Created
     * after the VarHandles, which its constructor uses.
     */
    static final Segment CLOSED_LIST = new Segment(Long.MAX_VALUE, null, 0);

    /** Position in the list: cells of this segment have global indices {@code id*SIZE ...}. */
    final long id;

    /** {@code [2i]} is cell i's state, {@code [2i+1]} its element slot. */
    private final Object[] cells;

    /**
     * Invariant: {@code null} only at the tail; otherwise a segment with a larger id (removed
     * segments are skipped over time), or {@link #CLOSED_LIST} once the channel closed the list.
     * Written by CAS when appending, and by removal to skip removed successors.
     */
    private volatile Segment next;

    /**
     * Invariant: {@code null} or a segment with a smaller id; it only moves further left (to an
     * alive predecessor) or to {@code null} once every operation moved past this segment.
     */
    private volatile Segment prev;

    /**
     * Low 16 bits: cleaned cells (0..SIZE, only grows). High bits: the number of channel segment
     * pointers referencing this segment. Removed iff cleaned == SIZE and pointers == 0; once
     * removed, pointers can no longer be added ({@link #tryIncPointers()} fails), unless it is
     * still the tail (the tail is never unlinked, so it may be referenced again). The pointers
     * include a birth's hold ({@link SegmentBirth}), dropped once the last cell is cleaned.
     */
    private volatile int cleanedAndPointers;

    /**
     * Channels with segment births only ({@link SegmentBirth}; never read otherwise). Invariant:
     * {@link SegmentBirth#UNBORN} (0, the default) until a thread fixes the birth by CAS (a code
     * with the marking flag: how many of the first cells the birth owns, and whether it holds a
     * pointer reference, {@link SegmentBirth#code}); then, once the owned cells are marked, the
     * same code without the flag, for good, by CAS from any thread that marked. The channel's
     * first segment is born in the channel's constructor.
     */
    private volatile int birth;

    /**
     * A new segment, not yet visible to any other thread. Its volatile fields are initialized with
     * plain stores, which skip the fence after each volatile store: another thread reaches a
     * segment only through a volatile read of a reference that was written after these stores
     * (the CAS of {@code next} that links it, or a channel's segment pointer, which its
     * constructor writes with a volatile store; {@link #CLOSED_LIST} through class
     * initialization), and that read orders them. A segment whose linking CAS failed is dropped
     * unseen. Measured (stop 39, docs/PERFORMANCE.md): a one-shot channel of capacity 1000, whose
     * first receive creates 31 segments, 0.85x the time with volatile stores; capacity 1: 0.97x.
     */
    Segment(long id, Segment prev, int pointers) {
        this.id = id;
        PREV.set(this, prev);
        this.cells = prev == null && id == Long.MAX_VALUE ? null : new Object[2 * SIZE];
        CLEANED_AND_POINTERS.set(this, pointers * POINTER_UNIT);
    }

    // ---- cells (accessor names say the memory mode: lv/sv volatile, so release, lp/sp plain, cas/cax)

    Object lvState(int i) {
        return CELLS.getVolatile(cells, 2 * i);
    }

    boolean casState(int i, Object expected, Object update) {
        return CELLS.compareAndSet(cells, 2 * i, expected, update);
    }

    /** Compare-and-exchange: returns the state it found ({@code expected} when it wrote). */
    Object caxState(int i, Object expected, Object update) {
        return CELLS.compareAndExchange(cells, 2 * i, expected, update);
    }

    void svState(int i, Object value) {
        CELLS.setVolatile(cells, 2 * i, value);
    }

    /**
     * Release store: for a transition that no other thread can race, so that no CAS is needed;
     * it publishes the writes before it to a thread that reads the state with {@link #lvState}.
     */
    void soState(int i, Object value) {
        CELLS.setRelease(cells, 2 * i, value);
    }

    /** Plain read: ordered by the volatile state read that precedes it. */
    Object lpElement(int i) {
        return cells[2 * i + 1];
    }

    /** Plain write: published by the volatile state write or CAS that follows it. */
    void spElement(int i, Object value) {
        cells[2 * i + 1] = value;
    }

    // ---- birth (see SegmentBirth) ----------------------------------------------------------------

    /**
     * Before the link, in a new segment no other thread can see: marks the cells below {@code
     * bufferEnd} (read before the link, so at most the R its birth reads after it) IN_BUFFER.
     */
    private void premark(long bufferEnd) {
        long n = Math.min(SIZE, bufferEnd - id * SIZE);
        for (int i = 0; i < n; i++) {
            CELLS.set(cells, 2 * i, Cells.State.IN_BUFFER);
        }
    }

    int lvBirth() {
        return birth;
    }

    boolean casBirth(int expected, int update) {
        return BIRTH.compareAndSet(this, expected, update);
    }

    /** Plain store: the channel's first segment, before the channel is published. */
    void spBirth(int code) {
        BIRTH.set(this, code);
    }

    /**
     * Adds a birth's pointer reference, tentatively, before the birth is fixed; refuses once a
     * cell is cleaned (the birth is then final, and the segment may be removed: a thread that read
     * UNBORN before another's birth must not bring a removed segment back).
     */
    boolean tryAddBirthHold() {
        while (true) {
            int v = cleanedAndPointers;
            if ((v & CLEANED_MASK) != 0) {
                return false;
            }
            if (CLEANED_AND_POINTERS.compareAndSet(this, v, v + POINTER_UNIT)) {
                return true;
            }
        }
    }

    // ---- links ---------------------------------------------------------------------------------

    Segment next() {
        return next;
    }

    boolean casNext(Segment expected, Segment update) {
        return NEXT.compareAndSet(this, expected, update);
    }

    Segment prev() {
        return prev;
    }

    /** Called once every operation has moved past the previous segments: lets them be collected. */
    void cleanPrev() {
        if (prev != null) {
            PREV.setRelease(this, (Segment) null);
        }
    }

    boolean isTail() {
        Segment n = next;
        return n == null || n == CLOSED_LIST;
    }

    /** Closes the list at its tail so no segment can be appended; returns the last segment. */
    static Segment closeList(Segment from) {
        Segment cur = from;
        while (true) {
            Segment n = cur.next;
            if (n == CLOSED_LIST) {
                return cur;
            }
            if (n == null) {
                if (cur.casNext(null, CLOSED_LIST)) {
                    return cur;
                }
                continue;
            }
            cur = n;
        }
    }

    /**
     * Walks from {@code start} to the first segment that is not removed and has {@code id >= id},
     * appending segments as needed. Returns {@link #CLOSED_LIST} if the list was closed first.
     */
    static Segment findOrCreate(Segment start, long id) {
        return findOrCreate(start, id, false, null);
    }

    /**
     * {@link #findOrCreate(Segment, long)}; with {@code nextOnly} it appends no segment other than
     * the one with {@code id} itself, and returns the tail (whose id is then below {@code id}) when
     * the list ends more than one segment before {@code id}. For a channel with births ({@code
     * births} not null) each segment it creates has its cells below the buffer end read before the
     * link already marked, with plain stores that the link publishes ({@link SegmentBirth}).
     */
    static Segment findOrCreate(Segment start, long id, boolean nextOnly, ChannelCounters births) {
        Segment cur = start;
        while (cur.id < id || cur.isRemoved()) {
            Segment n = cur.next;
            if (n == CLOSED_LIST) {
                return CLOSED_LIST;
            }
            if (n == null) {
                if (nextOnly && cur.id + 1 < id) {
                    return cur;
                }
                Segment created = new Segment(cur.id + 1, cur, 0);
                if (births != null) {
                    created.premark(births.lvBufferEnd());
                }
                if (cur.casNext(null, created)) {
                    if (cur.isRemoved()) {
                        cur.remove(); // it stopped being the tail
                    }
                    n = created;
                } else {
                    continue;
                }
            }
            cur = n;
        }
        return cur;
    }

    // ---- cleaning and removal ------------------------------------------------------------------

    boolean isRemoved() {
        return cleanedAndPointers == SIZE;
    }

    /** Adds a pointer reference; fails if the segment is already removed. */
    boolean tryIncPointers() {
        while (true) {
            int v = cleanedAndPointers;
            if (v == SIZE && !isTail()) {
                return false;
            }
            if (CLEANED_AND_POINTERS.compareAndSet(this, v, v + POINTER_UNIT)) {
                return true;
            }
        }
    }

    /** Drops a pointer reference, removing the segment if that made it removable. */
    void decPointers() {
        int v = (int) CLEANED_AND_POINTERS.getAndAdd(this, -POINTER_UNIT) - POINTER_UNIT;
        if (v == SIZE) {
            remove();
        }
    }

    /**
     * Counts one more cleaned cell (exactly once per cell), removing the segment when all are;
     * when the last one is and the birth holds a pointer reference, the birth is journaled and the
     * hold dropped ({@link SegmentBirth#release}).
     */
    void onCellCleaned(ChannelCounters ch) {
        int v = (int) CLEANED_AND_POINTERS.getAndAdd(this, 1) + 1;
        if (v == SIZE) {
            remove();
        } else if ((v & CLEANED_MASK) == SIZE && SegmentBirth.holds(birth)) {
            SegmentBirth.release(ch, this);
        }
    }

    int cleanedCells() {
        return cleanedAndPointers & CLEANED_MASK;
    }

    /**
     * Unlinks this logically removed segment in O(1): links its closest alive predecessor and
     * successor to each other, then helps if either of them got removed meanwhile.
     */
    void remove() {
        while (true) {
            if (isTail()) {
                return;
            }
            Segment left = aliveLeft();
            Segment right = aliveRight();
            // move right.prev to the left only (it may be null once cleaned: keep it null)
            while (true) {
                Segment rp = right.prev;
                if (rp == null || (left != null && rp.id <= left.id) || rp == left) {
                    break;
                }
                if (PREV.compareAndSet(right, rp, left)) {
                    break;
                }
            }
            if (left != null) {
                // move left.next to the right only
                while (true) {
                    Segment ln = left.next;
                    if (ln == null || ln == CLOSED_LIST || ln.id >= right.id) {
                        break;
                    }
                    if (left.casNext(ln, right)) {
                        break;
                    }
                }
            }
            if (right.isRemoved() && !right.isTail()) {
                continue;
            }
            if (left != null && left.isRemoved()) {
                continue;
            }
            return;
        }
    }

    private Segment aliveLeft() {
        Segment cur = prev;
        while (cur != null && cur.isRemoved()) {
            cur = cur.prev;
        }
        return cur;
    }

    private Segment aliveRight() {
        Segment cur = next;
        while (cur.isRemoved()) {
            Segment n = cur.next;
            if (n == null || n == CLOSED_LIST) {
                return cur;
            }
            cur = n;
        }
        return cur;
    }

    @Override
    public String toString() {
        if (cells == null) {
            return "CLOSED_LIST";
        }
        StringBuilder sb = new StringBuilder("Segment#").append(id).append('[');
        for (int i = 0; i < SIZE; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Object s = lvState(i);
            sb.append(s instanceof Thread t ? "Thread(" + t.threadId() + ")" : String.valueOf(s));
        }
        return sb.append("] cleaned=").append(cleanedCells()).toString();
    }
}
