package dev.weft.stress.repro;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelClosed;
import dev.weft.channels.Select;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Minimal repro found by {@code RandomStress}: selects that send on two capacity-1 channels vs
 * selects that receive from them. No interrupts, no timeouts, no close until the end. Every
 * sending select returns normally, so every value counts as sent; then both channels are closed
 * as done, and the receivers (selecting until one channel reports done, then receiving from the
 * other) must still get every value.
 *
 * <p>Usage: {@code SelectSendVsSelectReceiveLoss [capacity=1] [rounds=2000] [drainFirst]}. Prints the first
 * round that lost (or duplicated) a value, and exits 1.
 */
public final class SelectSendVsSelectReceiveLoss {
    static final int PRODUCERS = 4;
    static final int CONSUMERS = 3;
    static final AtomicLong NULLS = new AtomicLong();

    private SelectSendVsSelectReceiveLoss() {}

    public static void main(String[] args) throws Exception {
        int capacity = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        boolean drainFirst = args.length > 2 && args[2].equals("drainFirst");
        final int perProducer = 1000;
        for (int round = 0; round < rounds; round++) {
            Channel<Integer> a = Channel.newBufferedChannel(capacity);
            Channel<Integer> b = Channel.newBufferedChannel(capacity);
            AtomicLong received = new AtomicLong();
            AtomicLong sum = new AtomicLong();
            Thread[] producers = new Thread[PRODUCERS];
            for (int p = 0; p < PRODUCERS; p++) {
                producers[p] = (p % 2 == 0 ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
                    try {
                        for (int i = 1; i <= perProducer; i++) {
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
                                NULLS.incrementAndGet(); // a receive clause can never yield null
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
            for (Thread t : producers) {
                t.join();
            }
            // Every value was sent. With drainFirst, wait (up to 2 s) until the receivers got them all
            // before closing, to tell a loss in the close path from a loss in select-vs-select.
            if (drainFirst) {
                long deadline = System.currentTimeMillis() + 2000;
                while (received.get() < (long) PRODUCERS * perProducer && System.currentTimeMillis() < deadline) {
                    Thread.sleep(1);
                }
                if (received.get() < (long) PRODUCERS * perProducer) {
                    System.out.printf("round %d: before any close, %d of %d values received after 2 s%n  a=%s%n  b=%s%n",
                            round, received.get(), PRODUCERS * perProducer, a, b);
                }
            }
            // Close both channels (done: buffered values stay receivable).
            a.doneOrClosed();
            b.doneOrClosed();
            for (Thread t : consumers) {
                t.join();
            }
            long expectedSum = (long) PRODUCERS * perProducer * (perProducer + 1) / 2;
            if (received.get() != (long) PRODUCERS * perProducer || sum.get() != expectedSum) {
                System.out.printf("round %d: sent %d values (sum %d), received %d (sum %d); selects that returned"
                        + " null instead of a value so far: %d%n  a=%s%n  b=%s%n", round,
                        PRODUCERS * perProducer, expectedSum, received.get(), sum.get(), NULLS.get(), a, b);
                System.exit(1);
            }
        }
        System.out.println("no loss in " + rounds + " rounds");
    }
}
