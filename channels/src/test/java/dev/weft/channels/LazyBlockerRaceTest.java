package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The park blockers ({@link ChannelWait}) are made by the first wait of each
 * kind and CAS-published. Each round takes a fresh channel and starts several threads of the same
 * side together, so that their first waits race to make the blocker; once all are parked, every
 * one must be parked on the same object, the published one ({@link ChannelState#waitBlocker}),
 * of the right kind and naming this channel. Then the partners come and every parked thread must
 * wake (no lost wake-up) with its value.
 */
@Timeout(60)
class LazyBlockerRaceTest {

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void racedFirstReceivesParkOnOneBlockerAndAllWake(ThreadKind kind) throws Exception {
        rounds(kind, false, kind == ThreadKind.VIRTUAL ? 3_000 : 400, kind == ThreadKind.VIRTUAL ? 3 : 2);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void racedFirstSendsParkOnOneBlockerAndAllWake(ThreadKind kind) throws Exception {
        rounds(kind, true, kind == ThreadKind.VIRTUAL ? 3_000 : 400, kind == ThreadKind.VIRTUAL ? 3 : 2);
    }

    /**
     * Direct calls: 2 threads in lockstep ({@link FirstRaces.Lockstep}) make the blocker of one
     * kind (send on even channels, receive on odd ones) of each of 100,000 fresh channels at once;
     * both must get the one published object, of the right kind, naming the channel; the other
     * kind is made later and is another object.
     */
    @Test
    void twoThreadsMakingTheFirstBlockerAtOnceGetTheSameOne() throws Exception {
        int n = 100_000;
        @SuppressWarnings("unchecked")
        Channel<Integer>[] chs = new Channel[n];
        for (int i = 0; i < n; i++) {
            chs[i] = i % 4 < 2 ? Channel.newRendezvousChannel() : Channel.newBufferedChannel(16);
        }
        ChannelWait[][] seen = new ChannelWait[2][n];
        FirstRaces.Lockstep step = new FirstRaces.Lockstep(2, Duration.ofSeconds(30));
        new FirstRaces.Workers(ThreadKind.PLATFORM, 2, t -> {
            for (int i = 0; i < n; i++) {
                step.await(t, i);
                seen[t][i] = chs[i].waitBlocker(i % 2 == 0);
                step.done(t, i);
            }
        }).join(Duration.ofSeconds(40), () -> "");
        int mismatches = 0;
        String first = null;
        for (int i = 0; i < n; i++) {
            boolean send = i % 2 == 0;
            ChannelWait published = chs[i].waitBlocker(send);
            if (seen[0][i] != published || seen[1][i] != published) {
                mismatches++;
                if (first == null) {
                    first = "channel " + i + ": " + System.identityHashCode(seen[0][i]) + " / "
                            + System.identityHashCode(seen[1][i]) + ", published " + System.identityHashCode(published);
                }
            }
            assertTrue(send ? published instanceof ChannelWait.Send : published instanceof ChannelWait.Receive);
            assertSame(chs[i], published.channel);
            ChannelWait other = chs[i].waitBlocker(!send);
            assertTrue(other != published && other == chs[i].waitBlocker(!send));
        }
        assertEquals(0, mismatches, "threads got a blocker that is not the published one, first " + first);
    }

    private static void rounds(ThreadKind kind, boolean send, int rounds, int k) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        int done = 0;
        for (int r = 0; r < rounds && System.nanoTime() - deadline < 0; r++, done++) {
            Channel<Integer> c = r % 2 == 0 ? Channel.newRendezvousChannel() : Channel.newBufferedChannel(16);
            if (send && r % 2 == 1) {
                for (int v = 0; v < 16; v++) {
                    assertTrue(c.trySend(-1), "buffer of a fresh channel"); // fill it, so that the senders wait
                }
            }
            AtomicInteger sum = new AtomicInteger();
            Thread[] ts = FirstRaces.startParked(kind, k, j -> {
                if (send) {
                    c.send(j + 1);
                } else {
                    sum.addAndGet(c.receive());
                }
            });
            Object first = LockSupport.getBlocker(ts[0]);
            for (Thread t : ts) {
                Object b = LockSupport.getBlocker(t);
                if (b != first) {
                    fail("round " + r + ": threads parked on different blockers " + first + " @"
                            + System.identityHashCode(first) + " and " + b + " @" + System.identityHashCode(b));
                }
            }
            assertSame(c.waitBlocker(send), first, "round " + r + ": not the published blocker");
            assertTrue(send ? first instanceof ChannelWait.Send : first instanceof ChannelWait.Receive, String.valueOf(first));
            assertSame(c, ((ChannelWait) first).channel);
            int expected = 0;
            if (send) {
                int skip = r % 2 == 1 ? 16 : 0;
                for (int j = 0; j < skip; j++) {
                    assertEquals(-1, c.receive());
                }
                for (int j = 0; j < k; j++) {
                    sum.addAndGet(c.receive());
                }
            } else {
                for (int j = 0; j < k; j++) {
                    c.send(j + 1);
                }
            }
            for (int j = 0; j < k; j++) {
                expected += j + 1;
            }
            for (Thread t : ts) {
                if (!t.join(Duration.ofSeconds(10))) {
                    fail("round " + r + ": lost wake-up? " + t + " " + t.getState() + "\n" + Forked.stack(t)
                            + "\n" + c.dumpCells());
                }
            }
            assertEquals(expected, sum.get(), "round " + r);
        }
        System.out.println("LazyBlockerRaceTest " + kind + (send ? " send" : " receive") + ": " + done + " rounds");
    }
}
