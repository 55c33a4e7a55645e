package dev.weft.channels;

import java.util.ArrayList;
import java.util.List;

/**
 * Repro (found by {@link MemoryBoundedness} against channels 3664d08): receive registrations
 * withdrawn from a <em>buffered</em> channel (interrupted plain receivers, and interrupted selects
 * with a receive clause on it) leave their cells INTERRUPTED_RCV but not counted as cleaned
 * ({@code cleaned=0} in the dump), so their segments are never unlinked: 10,000 withdrawn waiters
 * leave ~313 segments reachable. Rendezvous channels are fine. Package {@code dev.weft.channels}
 * for the {@code reachableSegments()} hook (run on the class path). Exits 1 while the bug is there.
 */
public final class BufferedWithdrawnReceiversLeak {
    private BufferedWithdrawnReceiversLeak() {}

    interface Waiter {
        void run() throws InterruptedException;
    }

    static int withdraw(Channel<Integer> ch, int n, Waiter w) throws InterruptedException {
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ts.add(Thread.ofVirtual().start(() -> {
                try {
                    w.run();
                    throw new AssertionError("completed on an empty channel");
                } catch (InterruptedException expected) {
                    // withdrawn
                }
            }));
        }
        for (Thread t : ts) {
            while (t.getState() != Thread.State.WAITING) {
                Thread.sleep(1);
            }
        }
        ts.forEach(Thread::interrupt);
        for (Thread t : ts) {
            t.join();
        }
        return ch.reachableSegments();
    }

    public static void main(String[] args) throws Exception {
        int n = 10_000;
        boolean bug = false;
        for (int capacity : new int[] {0, 1, 4}) {
            Channel<Integer> plain = Channel.newBufferedChannel(capacity);
            int r1 = withdraw(plain, n, plain::receive);
            Channel<Integer> other = Channel.newRendezvousChannel();
            Channel<Integer> sel = Channel.newBufferedChannel(capacity);
            int r2 = withdraw(sel, n, () -> Select.select(other.receiveClause(), sel.receiveClause()));
            System.out.printf("capacity %d: %,d interrupted receivers -> %d segments reachable;"
                    + " %,d interrupted selects -> %d%n", capacity, n, r1, n, r2);
            bug |= r1 > 4 || r2 > 4;
        }
        System.out.println(bug ? "BUG: withdrawn receive registrations keep segments reachable" : "ok");
        System.exit(bug ? 1 : 0);
    }
}
