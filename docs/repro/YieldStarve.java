// Not part of the build. Run: java docs/repro/YieldStarve.java (JDK 21+; seen on JDK 25, 2 cores).
// Six virtual "senders" each add a token, unpark a parked virtual "receiver" and loop on
// Thread.yield() until the token is taken; receivers park for at most 1 ms. No channel is
// involved. On a two-core machine two yielding senders can keep both carriers while the
// runnable receivers never run: the program prints "STARVED" (round 26 on the first try here).
// This is why SelectInterruptChaosTest backs off with parkNanos, and why Sink.trySend's javadoc
// warns against trySend spin loops on virtual threads.
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.LockSupport;
public class YieldStarve {
    public static void main(String[] a) throws Exception {
        for (int round = 0; round < 2000; round++) {
            // 6 "senders" hand tokens to 6 "receivers" through a one-slot mailbox each: a sender
            // unparks a waiting receiver and yield-spins until some receiver has taken a token
            AtomicInteger tokens = new AtomicInteger();
            AtomicInteger taken = new AtomicInteger();
            ConcurrentLinkedQueue<Thread> waiting = new ConcurrentLinkedQueue<>();
            int per = 200, n = 6;
            Thread[] rs = new Thread[n];
            for (int i = 0; i < n; i++) rs[i] = Thread.ofVirtual().start(() -> {
                while (taken.get() < n * per) {
                    waiting.add(Thread.currentThread());
                    LockSupport.parkNanos(1_000_000);
                    int t = tokens.get();
                    if (t > 0 && tokens.compareAndSet(t, t - 1)) taken.incrementAndGet();
                }
            });
            Thread[] ss = new Thread[n];
            for (int i = 0; i < n; i++) ss[i] = Thread.ofVirtual().start(() -> {
                for (int k = 0; k < per; k++) {
                    tokens.incrementAndGet();
                    Thread w = waiting.poll(); if (w != null) LockSupport.unpark(w);
                    while (tokens.get() > 0) { Thread.yield(); }
                }
            });
            long t0 = System.nanoTime();
            for (Thread t : ss) { t.join(10_000); if (t.isAlive()) { System.out.println("STARVED round " + round); System.exit(1);} }
            for (Thread t : rs) t.join();
        }
        System.out.println("no starvation");
    }
}
