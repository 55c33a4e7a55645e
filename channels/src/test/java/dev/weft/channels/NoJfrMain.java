package dev.weft.channels;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Run by {@link WithoutJfrTest} in a child JVM whose only modules are {@code java.base} and {@code
 * dev.weft.channels}: every kind of wait (and so every JFR hook) must work without {@code jdk.jfr}.
 * Exits with 0 and prints {@code OK} when all is well.
 */
final class NoJfrMain {
    private NoJfrMain() {}

    public static void main(String[] args) throws Exception {
        check(ModuleLayer.boot().findModule("jdk.jfr").isEmpty(), "jdk.jfr is in the boot layer");
        check(!WaitEvents.JFR, "WaitEvents thinks jdk.jfr is readable");
        Channel<String> ch = Channel.newRendezvousChannel("no-jfr");
        check(ch.tryReceive(Duration.ofMillis(20)) == null, "timed receive");
        check(!ch.trySend("x", Duration.ofMillis(20)), "timed send");
        Thread receiver = Thread.ofVirtual().start(() -> {
            try {
                check("v".equals(ch.receive()), "rendezvous");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        while (!(LockSupport.getBlocker(receiver) instanceof ChannelWait)) {
            Thread.onSpinWait();
        }
        check(LockSupport.getBlocker(receiver).toString().equals("receive on Channel[no-jfr, capacity 0]"),
                "blocker");
        ch.send("v");
        receiver.join();
        try {
            Select.selectWithin(Duration.ofMillis(20), ch.receiveClause());
            check(false, "select timeout");
        } catch (TimeoutException expected) {
            // fine
        }
        Thread selector = Thread.ofVirtual().start(() -> {
            try {
                check("s".equals(Select.select(ch.receiveClause())), "select");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        ch.send("s");
        selector.join();
        check(ch.toString().equals("Channel[no-jfr, capacity 0, open, waiting senders ~0, waiting receivers ~0]"),
                ch.toString());
        System.out.println("OK");
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAILED: " + what);
            System.exit(1);
        }
    }
}
