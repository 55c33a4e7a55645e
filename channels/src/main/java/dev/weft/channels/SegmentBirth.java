package dev.weft.channels;

import static dev.weft.channels.Cells.State.IN_BUFFER;
import static dev.weft.channels.ChannelState.SIZE;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Segment births: buffered channels whose capacity exceeds four segments do not create segments
 * ahead of their senders and receivers for buffer expansion. Without births, the first receive of
 * a channel of capacity {@code n} moves the buffer end past cell {@code n} and marks the cell,
 * which creates every segment up to it (about 10 bytes per slot); docs/PERFORMANCE.md, stops 39
 * to 41.
 *
 * <p><b>Skipping.</b> An expansion whose cell lies more than one segment beyond the list's tail
 * returns at once ({@link BufferExpansion}); one whose cell lies in the segment right after the
 * tail creates it, as before births, since creating segments where the senders create them made
 * the buffered pair about a tenth slower (stop 40).
 *
 * <p><b>Birth.</b> The first thread that needs a linked segment (every segment a thread acts on
 * comes from {@link ChannelCounters#findSegment}, which bears it, and every segment pointer
 * references a born segment) reads the buffer end R <em>after</em> the segment was linked, and
 * fixes it by CAS. The segment's cells below R are its own: the bearer marks them {@code
 * IN_BUFFER} before the birth is published (most of them by the thread that created the segment,
 * with plain stores before it linked it, for the cells below the buffer end it read then, which
 * is at most R), so that they look exactly like cells an expansion passed before their sender
 * came, and no expansion acts on them. Fixing R and publishing the
 * birth are two steps (a code with {@code MARKING}, then without), and every thread that finds a
 * birth still marking marks with it, by CAS, so nobody ever waits for another thread's birth:
 * helper 44 found that a {@code StackOverflowError} inside a birth that others waited for hung
 * the channel (stop 41, a reproduction through the send's own recovery from that Error; {@code
 * SegmentBirthTest} injects one there). Known limit: an Error between taking the tentative hold
 * and the CAS, or between a lost CAS and dropping the hold, leaves one pointer reference behind,
 * so that segment is never removed (its memory, as in {@link #release}); nothing waits on it.
 *
 * <p><b>Why ownership is exact.</b> The buffer end only grows, so the expansion of a cell b made
 * its fetch-and-add before R was read exactly when b &lt; R. An expansion that skipped found no
 * segment after its fetch-and-add, so the segment was linked later and R, read after the link, is
 * above b: skipped cells are always owned. An expansion that finds its segment born checks b
 * against it ({@link #owns}) and returns for an owned cell: its duty (marking, counting a
 * withdrawn receiver's cell as cleaned, making up a withdrawn sender's slot) is the birth's, and
 * the marks hand every such duty to the withdrawals, as for any cell an expansion marked.
 *
 * <p><b>Removed segments.</b> An expansion delayed between its fetch-and-add and its look may find
 * its cell's segment removed (all its cells withdrawn) and then has no R to compare with: an owned
 * cell's withdrawn sender made its slot up itself, a cell above R left that to the expansion. So a
 * birth that owns a cell an expansion can have counted (a cell at or beyond the capacity; no
 * expansion counts the initial buffer) holds one pointer reference on its segment until the last
 * cell is cleaned; the thread that cleans it appends (id, owned cells) to a journal before it
 * drops the hold ({@link #release}). Every expansion reads the journal's newest record before its
 * fetch-and-add, and one that finds its segment removed looks for the segment's record among the
 * later ones ({@link #ownedInRemoved}): the record was appended after R was read, so after an
 * owned cell's fetch-and-add. The channel keeps only the newest record; older ones are collected
 * once no expansion holds them.
 *
 * <p>Channels with a capacity of at most four segments (128 cells; {@code
 * weft.births.aboveSegments}) have no births: their expansions create every segment up to the
 * buffer end, as before births, which costs at most four segments ahead, and they keep no journal
 * (whose first record would be 16 bytes more per channel). With births, a channel that carries a
 * few values at a time moves the creation of segments from its receivers' expansions to its
 * senders, and many short-lived pairs at capacity 100 measured 1.16-1.20x slower (stop 41,
 * docs/PERFORMANCE.md); the large capacities are what births are for.
 */
final class SegmentBirth {
    private SegmentBirth() {}

    /** Segment state before its birth (the default value of {@link Segment}'s field). */
    static final int UNBORN = 0;

    private static final int HOLD = 1 << 16;
    /** Flag of a birth whose owned cells may not all be marked yet (not yet published). */
    static final int MARKING = 1 << 17;

    /** The code of a birth that owns its first {@code owned} cells and holds a pointer or not. */
    static int code(int owned, boolean hold) {
        return (owned + 1) | (hold ? HOLD : 0);
    }

    /** Whether a birth code holds a pointer reference on its segment. */
    static boolean holds(int code) {
        return (code & HOLD) != 0;
    }

    private static int owned(int code) {
        return (code & (HOLD - 1)) - 1;
    }

    /**
     * Bears {@code seg} if it is not born yet: fixes the buffer end read now as its R (unless
     * another thread fixed one first), and marks the owned cells and publishes the birth, helping
     * whichever thread fixed R. Lock-free: no thread waits for another's birth, so a bearer that
     * stops half-way (a {@code StackOverflowError}) leaves the rest to the next thread.
     */
    static void bear(ChannelCounters ch, Segment seg) {
        int code = seg.lvBirth();
        if (code == UNBORN || (code & MARKING) != 0) {
            bearSlow(ch, seg, code);
        }
    }

    private static void bearSlow(ChannelCounters ch, Segment seg, int code) {
        if (code == UNBORN) {
            long start = seg.id * SIZE;
            long r = ch.lvBufferEnd(); // after the link: this thread reached seg through it
            int owned = (int) Math.max(0L, Math.min(SIZE, r - start));
            // a hold only where an expansion may have counted an owned cell (at or beyond the
            // capacity: no expansion counts the initial buffer)
            boolean hold = owned > 0 && start + owned > ((ChannelState) ch).capacity;
            if (hold && !seg.tryAddBirthHold()) {
                return; // a cell is cleaned: another thread's birth is final (read UNBORN stale)
            }
            int mine = code(owned, hold) | MARKING;
            if (seg.casBirth(UNBORN, mine)) {
                code = mine;
                Faults.at(Faults.BIRTH_FIXED);
            } else {
                if (hold) {
                    // the tentative hold may be the last reference by now: removes as any pointer
                    seg.decPointers();
                }
                code = seg.lvBirth();
                if ((code & MARKING) == 0) {
                    return;
                }
            }
        }
        // usually marked already by the segment's creator (Segment.premark); the rest by CAS,
        // never a plain store: a marker that stalls and comes back after the birth was published
        // finds its cell marked (an owned cell never returns to EMPTY)
        for (int i = 0, n = owned(code); i < n; i++) {
            if (seg.lvState(i) == null) {
                seg.casState(i, null, IN_BUFFER);
            }
        }
        seg.casBirth(code, code & ~MARKING);
    }

    /** Whether the birth of {@code seg} (born) owns cell {@code b}, one of its cells. */
    static boolean owns(Segment seg, long b) {
        return b - seg.id * SIZE < owned(seg.lvBirth());
    }

    /**
     * For an expansion of cell {@code b} that found the segment {@code id} removed: whether its
     * birth owned the cell, from the journal's records after {@code since}, which the expansion
     * read before its fetch-and-add. No record: the birth owned no cell that an expansion counts.
     */
    static boolean ownedInRemoved(Record since, long id, long b) {
        for (Record r = since.next; r != null; r = r.next) {
            if (r.id == id) {
                return b - id * SIZE < r.owned;
            }
        }
        return false;
    }

    /**
     * The last cell of {@code seg}, whose birth holds a pointer reference, was cleaned: journals
     * the birth, then drops the hold (which may remove the segment). If the record cannot be allocated
     * (an {@code OutOfMemoryError}, or a {@code StackOverflowError} here), the hold is kept: the
     * segment is then never removed, which costs its memory but keeps every expansion exact. The
     * caller is in the middle of a withdrawal that must finish, so the Error is not rethrown.
     */
    static void release(ChannelCounters ch, Segment seg) {
        try {
            append(ch, new Record(seg.id, owned(seg.lvBirth())));
        } catch (Throwable e) {
            return;
        }
        seg.decPointers();
    }

    private static void append(ChannelCounters ch, Record r) {
        while (true) {
            Record last = ch.lvBirthJournal();
            Record n = last.next;
            if (n != null) {
                ch.casBirthJournal(last, n); // help a record that is linked but not yet the newest
            } else if (last.casNext(null, r)) {
                ch.casBirthJournal(last, r);
                return;
            }
        }
    }

    /**
     * One journaled birth: the segment's id and how many of its first cells the birth owned. A
     * journal starts with a record of no segment (id -1).
     */
    static final class Record {
        private static final VarHandle NEXT;

        static {
            try {
                NEXT = MethodHandles.lookup().findVarHandle(Record.class, "next", Record.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final long id;
        final int owned;

        /** Invariant: {@code null}, then the record journaled right after this one, for good. */
        private volatile Record next;

        Record(long id, int owned) {
            this.id = id;
            this.owned = owned;
        }

        private boolean casNext(Record expected, Record update) {
            return NEXT.compareAndSet(this, expected, update);
        }
    }
}
