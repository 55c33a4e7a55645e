package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link ChannelState#id()} is taken lazily by a CAS from 0. Rounds of 20,000
 * fresh unnamed channels are described for the first time by 2 threads (as many as the cores
 * this was written for) in lockstep ({@link FirstRaces.Lockstep}: both call {@code id()} on
 * channel i once both are done with channel i - 1, so they race on each first description):
 * every thread must see the same id for a channel, and {@code toString()} and a wait blocker's
 * {@code toString()} must show it; ids are positive and unique across all channels of the test.
 * Rounds go on for up to 3 s or until 2,000 ids were skipped by lost CASes (the JVM-wide counter
 * minus the channels described; printed, to show the threads did race).
 */
@Timeout(60)
class LazyIdRaceTest {
    private static final int THREADS = 2;
    private static final int N = 20_000;

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void idsAgreeAreUniqueAndStableUnderConcurrentFirstDescriptions(ThreadKind kind) throws Exception {
        Set<Long> all = new HashSet<>();
        long idsBefore = ids().get();
        long described = 0;
        long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        int rounds = 0;
        do {
            round(kind, all);
            described += N;
            rounds++;
        } while (ids().get() - idsBefore - described < 2_000 && System.nanoTime() - end < 0);
        long skipped = ids().get() - idsBefore - described;
        System.out.println("LazyIdRaceTest " + kind + ": " + rounds + " rounds of " + N
                + " channels, ids skipped by lost CASes: " + skipped);
        assertEquals(described, all.size(), "ids not unique");
    }

    private static void round(ThreadKind kind, Set<Long> all) throws Exception {
        @SuppressWarnings("unchecked")
        Channel<Integer>[] chs = new Channel[N];
        for (int i = 0; i < N; i++) {
            chs[i] = switch (i % 3) {
                case 0 -> Channel.newRendezvousChannel();
                case 1 -> Channel.newBufferedChannel(1 + i % 20);
                default -> Channel.newUnlimitedChannel();
            };
        }
        long[][] seen = new long[THREADS][N];
        FirstRaces.Lockstep step = new FirstRaces.Lockstep(THREADS, Duration.ofSeconds(30));
        new FirstRaces.Workers(kind, THREADS, t -> {
            for (int i = 0; i < N; i++) {
                step.await(t, i);
                seen[t][i] = chs[i].id();
                step.done(t, i);
            }
            // the other paths that describe a channel must show the same id
            for (int i = t; i < N; i += THREADS) {
                Channel<Integer> c = chs[i];
                long a = idOf(c.toString(), "Channel#");
                long b = idOf(c.waitBlocker(t % 2 == 0).toString(), (t % 2 == 0 ? "send" : "receive") + " on Channel#");
                if (a != seen[t][i] || b != seen[t][i]) {
                    throw new AssertionError("channel " + i + ": id " + seen[t][i] + ", toString " + a + ", blocker " + b);
                }
            }
        }).join(Duration.ofSeconds(30), () -> "");
        for (int i = 0; i < N; i++) {
            long id = seen[0][i];
            for (int t = 1; t < THREADS; t++) {
                if (seen[t][i] != id) {
                    fail("channel " + i + ": thread 0 saw id " + id + ", thread " + t + " saw " + seen[t][i]);
                }
            }
            assertTrue(id > 0, "id " + id);
            assertEquals(id, chs[i].id(), "stable");
            if (!all.add(id)) {
                fail("channel " + i + " has the id " + id + " of another channel");
            }
        }
    }

    private static long idOf(String s, String prefix) {
        if (!s.startsWith(prefix)) {
            throw new AssertionError(s);
        }
        return Long.parseLong(s.substring(prefix.length(), s.indexOf('[')));
    }

    private static AtomicLong ids() throws ReflectiveOperationException {
        Field f = ChannelState.class.getDeclaredField("IDS");
        f.setAccessible(true);
        return (AtomicLong) f.get(null);
    }
}
