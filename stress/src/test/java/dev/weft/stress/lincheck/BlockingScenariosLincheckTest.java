package dev.weft.stress.lincheck;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckSettings;
import org.junit.jupiter.api.Test;

/**
 * Small blocking scenarios under Lincheck's general-purpose model checker ({@link
 * Lincheck#runConcurrentTest(int, Runnable)}): it runs the block many times, each time with a
 * different interleaving of the threads the block starts, with switch points at every shared
 * memory access and at park/unpark. Shared state lives in static fields so that Lincheck treats it
 * as shared (objects reachable only from a thread's locals may be considered thread-local).
 *
 * <p>The last test is a negative control: a deliberately broken channel that the checker must
 * catch.
 */
public class BlockingScenariosLincheckTest {
    static final int INVOCATIONS = Integer.getInteger("lincheck.blockingInvocations", 1000);

    static volatile Channel<Integer> a;
    static volatile Channel<Integer> b;
    static volatile Object r1;
    static volatile Object r2;
    static volatile BrokenChannel broken;

    interface Body {
        void run() throws Exception;
    }

    static Thread start(Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        t.start();
        return t;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    static Runnable wrap(Body body) {
        return () -> {
            try {
                body.run();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
    }

    /** A blocking send meets a blocking receive on a rendezvous channel. */
    @Test
    void rendezvousSendReceive() {
        Lincheck.runConcurrentTest(INVOCATIONS, wrap(() -> {
            a = Channel.newRendezvousChannel();
            Thread sender = start(() -> a.send(1));
            int v = a.receive();
            sender.join();
            check(v == 1, "received " + v);
        }));
    }

    /** A blocking send vs a tryReceive (BROKEN cells) and a fallback receive. */
    @Test
    void sendVsTryReceiveThenReceive() {
        Lincheck.runConcurrentTest(INVOCATIONS, wrap(() -> {
            a = Channel.newRendezvousChannel();
            Thread sender = start(() -> a.send(1));
            Integer v = a.tryReceive();
            if (v == null) {
                v = a.receive();
            }
            sender.join();
            check(v == 1, "received " + v);
        }));
    }

    /**
     * Lincheck settings for the interrupt scenarios: a waiter spins up to 1024 times before it
     * parks (and only the park observes the interrupt), so the default loop bound (50 iterations
     * without progress = livelock) reports a false hang. This uses Lincheck's internal entry point
     * (Kotlin {@code internal}, mangled name) to raise the bound.
     */
    static final LincheckSettings SPIN_TOLERANT = new LincheckSettings(true, 10, 2_000, 20);

    /** Interrupt vs resume on the send side: delivered iff the send reports success. */
    @Test
    void interruptVsResumeSend() {
        Lincheck.runConcurrentTestInternal$lincheck(INVOCATIONS, SPIN_TOLERANT, wrap(() -> {
            a = Channel.newRendezvousChannel();
            r1 = null;
            Thread sender = start(() -> {
                try {
                    a.send(1);
                    r1 = "sent";
                } catch (InterruptedException e) {
                    r1 = "interrupted";
                }
            });
            sender.interrupt();
            Integer v = a.tryReceive();
            sender.join();
            check("sent".equals(r1) == (v != null), "send " + r1 + " but tryReceive got " + v);
        }));
    }

    /** Interrupt vs resume on the receive side: consumed iff the receive returned it. */
    @Test
    void interruptVsResumeReceive() {
        Lincheck.runConcurrentTestInternal$lincheck(INVOCATIONS, SPIN_TOLERANT, wrap(() -> {
            a = Channel.newRendezvousChannel();
            r1 = null;
            Thread receiver = start(() -> {
                try {
                    r1 = a.receive();
                } catch (InterruptedException e) {
                    r1 = "interrupted";
                }
            });
            receiver.interrupt();
            boolean sent = a.trySend(1);
            receiver.join();
            check(sent == Integer.valueOf(1).equals(r1), "trySend " + sent + " but receive got " + r1);
        }));
    }

    /** A sending select vs a receiving select in the opposite clause order. */
    @Test
    void selectVsSelect() {
        Lincheck.runConcurrentTest(INVOCATIONS, wrap(() -> {
            a = Channel.newRendezvousChannel();
            b = Channel.newRendezvousChannel();
            r1 = null;
            Thread sender = start(() -> r1 = Select.select(a.sendClause(1, () -> 1), b.sendClause(2, () -> 2)));
            Integer v = Select.select(b.receiveClause(), a.receiveClause());
            sender.join();
            check(v.equals(r1), "select sent " + r1 + " but select received " + v);
        }));
    }

    /** Negative control: two concurrent trySends on a broken capacity-1 channel must not both succeed. */
    @Test
    void negativeControlIsCaught() {
        Throwable t = assertThrows(Throwable.class, () -> Lincheck.runConcurrentTest(INVOCATIONS, wrap(() -> {
            broken = new BrokenChannel(1);
            Thread other = start(() -> r1 = broken.trySend(1));
            Object mine = broken.trySend(2);
            other.join();
            check(!("sent".equals(mine) && "sent".equals(r1)), "both trySends succeeded on capacity 1");
        })));
        System.out.println("Negative control (runConcurrentTest) caught, as required: "
                + NegativeControlLincheckTest.firstLines(String.valueOf(t.getMessage()), 30));
    }
}
