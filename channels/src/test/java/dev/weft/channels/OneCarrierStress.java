package dev.weft.channels;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Run in a child JVM by {@link OneCarrierProgressTest}, with one scheduler carrier: checks that
 * every worker thread, virtual or platform, completes at least one channel operation in every
 * window of a few seconds (issue 8, Bug 4: waits that only spin or yield froze every virtual
 * thread when the carrier was busy re-running yielders).
 *
 * <p>Workers (see {@link OneCarrierWorkloads} for what each operation does): virtual and platform
 * threads doing selects over two of three channels (two rendezvous, one buffered) in random clause
 * orders with ~1 ms timeouts or a default clause; a virtual thread doing plain send/receive; one
 * doing timed operations; one doing try-operations and close queries; a virtual closer that
 * closes the channels (done or error) and installs fresh ones every 20-150 ms. A platform thread
 * interrupts random workers every few milliseconds. Every operation ends by itself within
 * milliseconds on a correct channel.
 *
 * <p>A platform watchdog checks every 100 ms that no worker went a whole window without
 * completing an operation. If the watchdog itself was not scheduled for half a window (the
 * machine or the JVM stalled: a GC pause, an overloaded host), the windows restart from that
 * moment, so a slow machine is not reported as a stuck thread. On a stall it prints each stuck
 * thread's stack and the channels, and exits with status 1. Exit status 0 means every worker
 * progressed in every window and stopped at the end.
 *
 * <p>Arguments: run seconds (default 20), window seconds (default 3), virtual selectors (default
 * 8), platform selectors (default 2).
 */
public final class OneCarrierStress {
    private OneCarrierStress() {}

    static final int EXIT_STUCK = 1;
    static final int EXIT_FAILED = 2;

    /** What a worker does in a loop; one call is one operation. */
    interface Op {
        void run(Worker w, ThreadLocalRandom rnd) throws InterruptedException;
    }

    /** A worker thread and its progress, read by the watchdog. */
    static final class Worker {
        final String name;
        final Op op;
        Thread thread;
        volatile long lastProgress = System.nanoTime();
        volatile long ops;
        volatile String doing = "starting";

        Worker(String name, Op op) {
            this.name = name;
            this.op = op;
        }

        void doing(String what) {
            doing = what;
        }
    }

    private static volatile boolean stop;
    private static final Set<String> CARRIERS = ConcurrentHashMap.newKeySet();

    public static void main(String[] args) throws Exception {
        long runSeconds = args.length > 0 ? Long.parseLong(args[0]) : 20;
        long windowSeconds = args.length > 1 ? Long.parseLong(args[1]) : 3;
        int virtualSelectors = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int platformSelectors = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        long window = TimeUnit.SECONDS.toNanos(windowSeconds);
        System.out.println("one-carrier stress: " + runSeconds + " s, windows of " + windowSeconds
                + " s, " + virtualSelectors + " virtual and " + platformSelectors
                + " platform selectors, segment size " + Channel.segmentSize()
                + ", parallelism=" + System.getProperty("jdk.virtualThreadScheduler.parallelism"));

        List<Worker> workers = new ArrayList<>();
        for (int k = 0; k < virtualSelectors; k++) {
            workers.add(new Worker("v-select-" + k, OneCarrierWorkloads::select));
        }
        workers.add(new Worker("v-plain", OneCarrierWorkloads::plain));
        workers.add(new Worker("v-timed", OneCarrierWorkloads::timed));
        workers.add(new Worker("v-try", (w, rnd) -> OneCarrierWorkloads.tryOp(w, rnd)));
        Worker closer = new Worker("v-closer", OneCarrierWorkloads::close);
        workers.add(closer);
        int virtual = workers.size();
        for (int k = 0; k < platformSelectors; k++) {
            workers.add(new Worker("p-select-" + k, OneCarrierWorkloads::platformMix));
        }
        for (int k = 0; k < workers.size(); k++) {
            Worker w = workers.get(k);
            Thread.Builder b = k < virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon(true);
            w.thread = b.name(w.name).unstarted(() -> loop(w));
        }
        Thread interrupter = Thread.ofPlatform().daemon(true).name("interrupter").unstarted(() -> {
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            while (!stop) {
                workers.get(rnd.nextInt(workers.size())).thread.interrupt();
                sleepQuietly(1 + rnd.nextInt(10));
            }
        });
        workers.forEach(w -> w.thread.start());
        interrupter.start();

        watch(workers, window, System.nanoTime() + TimeUnit.SECONDS.toNanos(runSeconds));

        // stop: the closer closes the last generation, so that plain operations end; then join
        stop = true;
        Thread main = Thread.currentThread();
        Thread.ofPlatform().daemon(true).name("stop-watchdog").start(() -> {
            sleepQuietly(2 * TimeUnit.NANOSECONDS.toMillis(window));
            List<Worker> alive = workers.stream().filter(w -> w.thread.isAlive()).toList();
            report("did not stop within two windows after the run", alive, workers);
            System.out.println("stack of main (" + main.getState() + "):");
            for (StackTraceElement e : main.getStackTrace()) {
                System.out.println("    at " + e);
            }
            System.out.flush();
            Runtime.getRuntime().halt(EXIT_STUCK);
        });
        interrupter.join();
        closer.thread.join();
        OneCarrierWorkloads.closeGeneration(closer, ThreadLocalRandom.current(), null);
        for (Worker w : workers) {
            w.thread.join();
        }
        StringBuilder sb = new StringBuilder("operations:");
        for (Worker w : workers) {
            sb.append(' ').append(w.name).append('=').append(w.ops);
        }
        System.out.println(sb);
        System.out.println("carriers seen: " + CARRIERS);
        if (CARRIERS.size() > 1) {
            System.out.println("FAILED: the virtual threads ran on more than one carrier");
            System.out.flush();
            Runtime.getRuntime().halt(EXIT_FAILED);
        }
        System.out.println("progress: ok");
    }

    private static void loop(Worker w) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        try {
            while (!stop) {
                try {
                    w.op.run(w, rnd);
                } catch (InterruptedException e) {
                    // the operation ended by the interrupt: that is progress too
                }
                long n = w.ops + 1;
                w.ops = n;
                w.lastProgress = System.nanoTime();
                w.doing("between operations");
                if ((n & 255) == 1 && w.thread.isVirtual()) {
                    CARRIERS.add(carrierOf(Thread.currentThread()));
                }
            }
        } catch (Throwable t) {
            System.out.println("FAILED: worker " + w.name + " threw");
            t.printStackTrace(System.out);
            System.out.flush();
            Runtime.getRuntime().halt(EXIT_FAILED);
        }
    }

    /** The carrier's name, from a mounted virtual thread's toString ("...@ForkJoinPool-1-worker-1"). */
    private static String carrierOf(Thread vt) {
        String s = vt.toString();
        int at = s.lastIndexOf('@');
        return at < 0 ? s : s.substring(at + 1);
    }

    /** Returns at {@code end}; halts the JVM when a worker went a whole window without progress. */
    private static void watch(List<Worker> workers, long window, long end) {
        long graceFrom = System.nanoTime();
        long lastTick = graceFrom;
        while (true) {
            sleepQuietly(100);
            long now = System.nanoTime();
            if (now - lastTick > window / 2) {
                // the watchdog itself did not run: the host or the JVM stalled, not a worker
                System.out.println("watchdog: not scheduled for "
                        + TimeUnit.NANOSECONDS.toMillis(now - lastTick) + " ms; windows restart");
                graceFrom = now;
            }
            lastTick = now;
            List<Worker> stuck = new ArrayList<>();
            for (Worker w : workers) {
                if (now - Math.max(w.lastProgress, graceFrom) > window) {
                    stuck.add(w);
                }
            }
            if (!stuck.isEmpty()) {
                report("no progress for a whole window", stuck, workers);
                System.out.flush();
                Runtime.getRuntime().halt(EXIT_STUCK);
            }
            if (now - end >= 0) {
                return;
            }
        }
    }

    private static void report(String what, List<Worker> stuck, List<Worker> workers) {
        long now = System.nanoTime();
        StringBuilder sb = new StringBuilder("STUCK: " + what + "\n");
        for (Worker w : workers) {
            sb.append(stuck.contains(w) ? "  * " : "    ").append(w.name)
                    .append(": ops=").append(w.ops)
                    .append(", last progress ")
                    .append(TimeUnit.NANOSECONDS.toMillis(now - w.lastProgress))
                    .append(" ms ago, doing ").append(w.doing)
                    .append(", state ").append(w.thread.getState()).append('\n');
        }
        for (Worker w : stuck) {
            sb.append("stack of ").append(w.thread).append(":\n");
            for (StackTraceElement e : w.thread.getStackTrace()) {
                sb.append("    at ").append(e).append('\n');
            }
        }
        sb.append("channels of the current generation:\n").append(OneCarrierWorkloads.CURRENT.get());
        System.out.println(sb);
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
