package dev.weft.stress;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelClosed;
import dev.weft.channels.ChannelDone;
import dev.weft.channels.ChannelError;
import dev.weft.channels.Select;
import dev.weft.channels.internal.StressAccess;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * Closing a channel while many virtual threads loop on it: the shape of the {@code error()} hang
 * that stop 24's outside repro found and that {@link RandomStress} (4 producers, 3 consumers, a
 * close at a random moment in some rounds) never hit. A sender that claimed its cell before the
 * error and read the error only afterwards left the cell to the error's sweep, which had already
 * passed (every pointer was beyond the cell's segment), so the receiver waiting there stayed parked
 * for ever.
 *
 * <p>Each round: one channel of the given capacity, {@code w} virtual senders looping {@code
 * sendOrClosed} and {@code w} virtual receivers looping {@code receiveOrClosed} (one in four
 * receivers selects over the channel and an idle channel instead) until they see the close; the
 * main thread waits 0 to 2 ms, then calls {@code error()} or {@code done()}. Checked:
 *
 * <ul>
 *   <li>every thread finishes within {@link #HANG_MS} of the close (else the round dumps the
 *       channel and the stuck thread and the run fails);
 *   <li>every thread ends by seeing the close reason of this round;
 *   <li>after {@code done()}, the values received equal the sends that returned normally (nothing
 *       lost, nothing twice); after {@code error()}, no more values are received than were sent.
 * </ul>
 *
 * <p>Usage: {@code CloseVsLoopingPairs <seconds> [capacities] [widths]}, e.g. {@code 40 0,1,16,-1
 * 8,32}. Exits with status 1 on the first failure.
 */
public final class CloseVsLoopingPairs {
    static final long HANG_MS = 10_000;

    private CloseVsLoopingPairs() {}

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 20;
        int[] capacities = ints(args.length > 1 ? args[1] : "0,1,16,-1");
        int[] widths = ints(args.length > 2 ? args[2] : "8,32");
        System.out.printf("CloseVsLoopingPairs: segmentSize=%d, capacities=%s, widths=%s, %.0f s%n",
                StressAccess.segmentSize(), Arrays.toString(capacities), Arrays.toString(widths), seconds);
        SplittableRandom rnd = new SplittableRandom();
        long perShape = (long) (seconds * 1e9 / (capacities.length * widths.length));
        long rounds = 0;
        for (int capacity : capacities) {
            for (int w : widths) {
                long end = System.nanoTime() + perShape;
                long before = rounds;
                while (System.nanoTime() < end) {
                    String failure = round(capacity, w, rnd.nextInt(3) != 0, rnd.nextInt(3));
                    rounds++;
                    if (failure != null) {
                        System.out.printf("CloseVsLoopingPairs FAILED in round %d (capacity %d, %d pairs): %s%n",
                                rounds, capacity, w, failure);
                        System.exit(1);
                    }
                }
                System.out.printf("  capacity %-9s pairs %3d  rounds %6d%n",
                        capacity < 0 ? "unlimited" : Integer.toString(capacity), w, rounds - before);
            }
        }
        System.out.printf("CloseVsLoopingPairs PASSED: segmentSize=%d rounds=%d%n", StressAccess.segmentSize(), rounds);
        System.exit(0);
    }

    private static int[] ints(String csv) {
        return Arrays.stream(csv.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    /** One round; returns {@code null} when it passed, else what went wrong. */
    static String round(int capacity, int w, boolean error, int closeAfterMs) throws InterruptedException {
        Channel<Integer> ch = capacity < 0
                ? Channel.newUnlimitedChannel()
                : capacity == 0 ? Channel.newRendezvousChannel() : Channel.newBufferedChannel(capacity);
        Channel<Integer> idle = Channel.newRendezvousChannel();
        LongAdder sent = new LongAdder();
        LongAdder received = new LongAdder();
        Object[] endedWith = new Object[2 * w];
        List<Thread> threads = new ArrayList<>(2 * w);
        for (int t = 0; t < w; t++) {
            int slot = 2 * t;
            threads.add(Thread.ofVirtual().start(() -> endedWith[slot] = sendUntilClosed(ch, sent)));
            boolean select = t % 4 == 3;
            threads.add(Thread.ofVirtual().start(() -> endedWith[slot + 1] = receiveUntilClosed(ch, idle, select, received)));
        }
        Thread.sleep(closeAfterMs);
        Object reason = error ? ch.errorOrClosed(new RuntimeException("stress error")) : ch.doneOrClosed();
        if (reason != null) {
            return "the close found the channel closed already: " + reason;
        }
        long deadline = System.nanoTime() + HANG_MS * 1_000_000L;
        for (Thread t : threads) {
            t.join(Math.max(1L, (deadline - System.nanoTime()) / 1_000_000L));
            if (t.isAlive()) {
                StringBuilder sb = new StringBuilder("a thread still runs ").append(HANG_MS)
                        .append(" ms after ").append(error ? "error()" : "done()").append(": ").append(ch)
                        .append('\n').append(ch.dumpCells());
                for (StackTraceElement e : t.getStackTrace()) {
                    sb.append("\n    at ").append(e);
                }
                return sb.toString();
            }
        }
        Class<?> expected = error ? ChannelError.class : ChannelDone.class;
        for (Object o : endedWith) {
            if (!expected.isInstance(o)) {
                return "a thread ended with " + o + " instead of a " + expected.getSimpleName();
            }
        }
        long s = sent.sum();
        long r = received.sum();
        if (error ? r > s : r != s) {
            return (error ? "more values received than sent: " : "values lost or duplicated after done(): ")
                    + "sent " + s + ", received " + r;
        }
        if (error && capacity >= 0 && s - r > capacity) {
            // error() discards only what the buffer held: at most its capacity, none in a
            // rendezvous channel (a rendezvous send returns once its receiver took the value)
            return "error() discarded more than the buffer holds: sent " + s + ", received " + r
                    + ", capacity " + capacity;
        }
        return null;
    }

    private static Object sendUntilClosed(Channel<Integer> ch, LongAdder sent) {
        try {
            while (true) {
                Object r = ch.sendOrClosed(1);
                if (r instanceof ChannelClosed) {
                    return r;
                }
                sent.increment();
            }
        } catch (Throwable t) {
            return t;
        }
    }

    private static Object receiveUntilClosed(Channel<Integer> ch, Channel<Integer> idle, boolean select, LongAdder received) {
        try {
            while (true) {
                Object r = select ? Select.selectOrClosed(ch.receiveClause(), idle.receiveClause()) : ch.receiveOrClosed();
                if (r instanceof ChannelClosed) {
                    return r;
                }
                received.increment();
            }
        } catch (Throwable t) {
            return t;
        }
    }
}
