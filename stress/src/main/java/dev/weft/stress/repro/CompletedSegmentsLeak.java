package dev.weft.stress.repro;

import dev.weft.channels.Channel;
import dev.weft.channels.StressHooks;

/**
 * Repro: on rendezvous and unlimited channels, segments that both counters have passed stay
 * reachable (the buffer-end segment pointer, unused by these kinds, keeps pointing at the first
 * segment), so memory grows with the number of operations ever performed: with {@code -Xmx64m},
 * ten million rendezvous end in {@code OutOfMemoryError}. Buffered channels are fine.
 *
 * <p>Usage: {@code CompletedSegmentsLeak [pairs=100000]}. Exits 1 while the bug is present.
 */
public final class CompletedSegmentsLeak {
    private CompletedSegmentsLeak() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        boolean bug = false;
        for (int capacity : new int[] {0, 1, 16, -1}) {
            Channel<Integer> ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
            Thread sender = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < n; i++) {
                        ch.send(i);
                    }
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            for (int i = 0; i < n; i++) {
                ch.receive();
            }
            sender.join();
            int reach = StressHooks.reachableSegments(ch);
            System.out.printf("capacity %s: after %,d send/receive pairs, %,d segments reachable (segment size %d)%n",
                    capacity < 0 ? "unlimited" : capacity, n, reach, StressHooks.segmentSize());
            bug |= reach > 4;
        }
        System.out.println(bug ? "BUG: completed segments stay reachable" : "ok");
        System.exit(bug ? 1 : 0);
    }
}
