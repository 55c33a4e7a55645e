package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelClosed;
import dev.weft.channels.Select;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Found by {@code RandomStress} (it was the repro main {@code SelectSendVsSelectReceiveLoss}):
 * selects that send on two small buffered channels against selects that receive from them, mixed
 * virtual and platform threads, no interrupts or timeouts. Every sending select returns normally,
 * so every value counts as sent; after closing both channels as done, the receivers must have got
 * every value exactly once (checked by count and sum), and no receive clause may yield {@code null}.
 */
class SelectSendVsSelectReceiveTest {
    private static final int PRODUCERS = 4;
    private static final int CONSUMERS = 3;
    private static final int PER_PRODUCER = 1000;
    private static final int ROUNDS = 40;

    @ParameterizedTest(name = "capacity {0}")
    @ValueSource(ints = {0, 1, 2})
    @Timeout(300)
    void noValueIsLostOrDuplicated(int capacity) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            round(capacity, round);
        }
    }

    private static void round(int capacity, int round) throws Exception {
        Channel<Integer> a = Channel.newBufferedChannel(capacity);
        Channel<Integer> b = Channel.newBufferedChannel(capacity);
        AtomicLong received = new AtomicLong();
        AtomicLong sum = new AtomicLong();
        AtomicLong nulls = new AtomicLong();
        Thread[] producers = new Thread[PRODUCERS];
        for (int p = 0; p < PRODUCERS; p++) {
            producers[p] = (p % 2 == 0 ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
                try {
                    for (int i = 1; i <= PER_PRODUCER; i++) {
                        if (i % 2 == 0) {
                            Select.select(a.sendClause(i), b.sendClause(i));
                        } else {
                            Select.select(b.sendClause(i), a.sendClause(i));
                        }
                    }
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
        }
        Thread[] consumers = new Thread[CONSUMERS];
        for (int c = 0; c < CONSUMERS; c++) {
            consumers[c] = (c % 2 == 0 ? Thread.ofPlatform() : Thread.ofVirtual()).start(() -> {
                try {
                    boolean aOpen = true;
                    boolean bOpen = true;
                    while (aOpen || bOpen) {
                        Object o;
                        if (aOpen && bOpen) {
                            o = ThreadLocalRandom.current().nextBoolean()
                                    ? Select.selectOrClosed(a.receiveClause(), b.receiveClause())
                                    : Select.selectOrClosed(b.receiveClause(), a.receiveClause());
                        } else {
                            o = (aOpen ? a : b).receiveOrClosed();
                        }
                        if (o instanceof Integer v) {
                            received.incrementAndGet();
                            sum.addAndGet(v);
                        } else if (o == null) {
                            nulls.incrementAndGet();
                        } else if (o instanceof ChannelClosed closed) {
                            if (closed.channel() == a) {
                                aOpen = false;
                            } else {
                                bOpen = false;
                            }
                        }
                    }
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
        }
        String context = "round " + round + ", capacity " + capacity;
        Threads.join(context, producers);
        a.doneOrClosed(); // done: buffered values stay receivable
        b.doneOrClosed();
        Threads.join(context, consumers);
        long expectedSum = (long) PRODUCERS * PER_PRODUCER * (PER_PRODUCER + 1) / 2;
        String state = context + "\n  a=" + a + "\n  b=" + b;
        assertEquals(0, nulls.get(), "receive clauses that yielded null, " + state);
        assertEquals((long) PRODUCERS * PER_PRODUCER, received.get(), "values received, " + state);
        assertEquals(expectedSum, sum.get(), "sum of the values received, " + state);
    }
}
