package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import org.junit.jupiter.api.Test;

/**
 * Regression, kotlinx.coroutines #504 ("the select algorithm gets into live-lock in a corner
 * case"): two selects over channels c1 and c2 in opposite directions each register in their first
 * channel, then each tries to rendezvous with the other through its second channel, installing a
 * descriptor in its own state and helping the other's forever (StackOverflowError in practice).
 * Descriptors must be installed in a global order of select ids. The test runs many such select
 * pairs (both the send/receive-split shape of #504 and plain send vs receive selects) and
 * requires each pair to complete consistently within the join deadline.
 */
class Kotlinx504OppositeSelectsTest {
    @Test
    void oppositeSelectsBothSendingAndReceiving() throws Exception {
        Channel<Integer> c1 = Channel.newRendezvousChannel();
        Channel<Integer> c2 = Channel.newRendezvousChannel();
        int n = 5000;
        int[] got1 = new int[n];
        int[] got2 = new int[n];
        // Thread 1: send 1 to c1 or receive from c2. Thread 2: send 2 to c2 or receive from c1.
        Thread t1 = Threads.start(() -> {
            for (int i = 0; i < n; i++) {
                got1[i] = Select.select(c1.sendClause(1, () -> -1), c2.receiveClause());
            }
        });
        Thread t2 = Threads.start(() -> {
            for (int i = 0; i < n; i++) {
                got2[i] = Select.select(c2.sendClause(2, () -> -2), c1.receiveClause());
            }
        });
        Threads.join("c1=" + c1 + "\nc2=" + c2, t1, t2);
        for (int i = 0; i < n; i++) {
            // Either t1 sent 1 on c1 (t2 received it) or t2 sent 2 on c2 (t1 received it).
            boolean viaC1 = got1[i] == -1 && got2[i] == 1;
            boolean viaC2 = got2[i] == -2 && got1[i] == 2;
            assertEquals(true, viaC1 || viaC2, "pair " + i + ": t1 " + got1[i] + ", t2 " + got2[i]);
        }
    }

    /**
     * Hung now and then against channels f9e5a6a (both selects parked) while select-vs-select
     * rendezvous could return {@code null} from a receive clause; passes against 3664d08.
     */
    @Test
    void oppositeOrderSendAndReceiveSelects() throws Exception {
        Channel<Integer> a = Channel.newRendezvousChannel();
        Channel<Integer> b = Channel.newRendezvousChannel();
        int n = 5000;
        int[] sent = new int[n];
        int[] received = new int[n];
        Thread s = Threads.start(() -> {
            for (int i = 0; i < n; i++) {
                sent[i] = Select.select(a.sendClause(1, () -> 1), b.sendClause(2, () -> 2));
            }
        });
        Thread r = Threads.start(() -> {
            for (int i = 0; i < n; i++) {
                received[i] = Select.select(b.receiveClause(), a.receiveClause());
            }
        });
        Threads.join("a=" + a + "\nb=" + b, s, r);
        for (int i = 0; i < n; i++) {
            assertEquals(sent[i], received[i], "pair " + i);
        }
    }
}
