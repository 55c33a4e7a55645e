package dev.weft.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A reference point for {@link UncontendedBenchmark}: the atomic instructions of a cell-based
 * buffered channel's path, and nothing else, so that weft's per-value cost there can be split
 * into what its design asks of the CPU and what weft adds on top. One thread sends a batch into a
 * ring of {@value #RING} cells and then receives it, as in that benchmark. There are no segments
 * (no allocation), no close checks, no waiting, no select and no second thread: every line stays
 * in the core's cache, so what is left is the cost of the locked instructions and the ordering
 * of the stores. Each cell has a state slot and an element slot; a received cell is reset to
 * empty (a release store, as weft's receiver's store of DONE) so that the ring can be reused.
 *
 * <p>The {@code path} says which instructions each value costs:
 * <ul>
 *   <li>{@code counters}: the two getAndIncrements that index the cells (sender, receiver), a plain
 *       element store and read, and the receiver's release store. What every design that indexes
 *       cells by counters pays at least (kotlinx.coroutines' and jox's channels, weft).
 *   <li>{@code cas}: as {@code counters}, and the sender commits the value with a CAS of the cell's
 *       state (a receiver may be installing itself there concurrently in a real channel).
 *   <li>{@code expand}: as {@code cas}, and each receive moves the buffer end with a third
 *       getAndIncrement, and the sender reads the buffer end to know that its cell is in the
 *       buffer (kotlinx's path, less the counter of completed expansions).
 *   <li>{@code mark}: weft's path: as {@code expand}, but the receive's expansion marks the cell it
 *       passes with a compare-and-exchange (EMPTY to IN_BUFFER), and the sender finds the mark
 *       instead of reading the buffer end.
 *   <li>{@code counted}: as {@code expand}, plus a fourth getAndIncrement per receive that counts
 *       the completed expansion (as kotlinx's {@code completedExpandBuffersAndPauseFlag}): weft's
 *       path with such a counter in place of its mark.
 *   <li>{@code kotlinx}: as {@code counted}, but the receiver takes the value with a CAS of the
 *       cell's state (BUFFERED to done) instead of a release store: the atomics of
 *       kotlinx.coroutines' {@code BufferedChannel} (6 locked instructions per value).
 * </ul>
 * It is not a proven lower bound: a real channel also pays for what this leaves out (segments,
 * close and error checks, waiting), and its compiled code differs.
 */
final class CellPathFloor {
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final Object BUFFERED = new Object();
    private static final Object IN_BUFFER = new Object();
    /** Cells in the ring (a power of two, far more than a batch plus the buffer). */
    static final int RING = 4096;

    /** The paths measured; see the class javadoc. */
    enum Path { counters, cas, expand, mark, counted, kotlinx }

    private final Path path;
    /** Element of cell i at 2i, its state at 2i + 1. */
    private final Object[] cells = new Object[2 * RING];
    private final PaddedCounter senders = new PaddedCounter(0);
    private final PaddedCounter receivers = new PaddedCounter(0);
    private final PaddedCounter bufferEnd;
    private final PaddedCounter completed = new PaddedCounter(0);

    CellPathFloor(String path, int capacity) {
        this.path = Path.valueOf(path);
        this.bufferEnd = new PaddedCounter(capacity);
        if (this.path == Path.mark) {
            for (int c = 0; c < capacity; c++) {
                cells[2 * c + 1] = IN_BUFFER; // the initial buffer, marked as weft marks it
            }
        }
    }

    /** Sends {@code n} values and then receives them (n at most the capacity); returns their count. */
    int sendThenReceive(int n, Object value) {
        for (int v = 0; v < n; v++) {
            send(value);
        }
        int count = 0;
        for (int v = 0; v < n; v++) {
            if (receive() == value) {
                count++;
            }
        }
        return count;
    }

    private void send(Object value) {
        long s = senders.next();
        int c = (int) s & (RING - 1);
        cells[2 * c] = value;
        switch (path) {
            case counters -> { }
            case cas -> commit(c, null);
            case mark -> commit(c, IN_BUFFER);
            case expand, counted, kotlinx -> {
                if (s >= bufferEnd.get()) {
                    throw new IllegalStateException("the buffer is full: a batch larger than the capacity");
                }
                commit(c, null);
            }
        }
    }

    private void commit(int c, Object expected) {
        if (!CELLS.compareAndSet(cells, 2 * c + 1, expected, BUFFERED)) {
            throw new IllegalStateException("cell " + c + " was not " + expected);
        }
    }

    private Object receive() {
        long r = receivers.next();
        int c = (int) r & (RING - 1);
        Object value = cells[2 * c];
        cells[2 * c] = null;
        if (path == Path.kotlinx) {
            if (!CELLS.compareAndSet(cells, 2 * c + 1, BUFFERED, (Object) null)) {
                throw new IllegalStateException("cell " + c + " was not buffered");
            }
        } else {
            CELLS.setRelease(cells, 2 * c + 1, (Object) null);
        }
        switch (path) {
            case counters, cas -> { }
            case expand -> bufferEnd.next();
            case counted, kotlinx -> {
                bufferEnd.next();
                completed.next();
            }
            case mark -> {
                int b = (int) bufferEnd.next() & (RING - 1);
                Object was = CELLS.compareAndExchange(cells, 2 * b + 1, (Object) null, IN_BUFFER);
                if (was != null) {
                    throw new IllegalStateException("cell " + b + " was not empty");
                }
            }
        }
        return value;
    }
}
