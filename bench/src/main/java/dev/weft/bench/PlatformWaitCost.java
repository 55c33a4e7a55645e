package dev.weft.bench;

import dev.weft.channels.Channel;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What platform threads' spinning costs in CPU, not only in time: wall time and process CPU time
 * of three weft scenarios on platform threads, so that two builds can be compared by running this
 * with each jar. Not a JMH benchmark, because the CPU a wait burns is the point here.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.weft.bench.PlatformWaitCost [rounds]
 * </pre>
 *
 * <ul>
 *   <li>{@code mpsc}: 16 senders into one receiver, capacity 16 (more threads than cores);
 *   <li>{@code pairs}: four rendezvous pairs at once on the machine's cores;
 *   <li>{@code slow}: one rendezvous pair whose sender arrives every 200 us, so that every receive
 *       spins for its whole window and then parks (the worst case of a spin window);
 *   <li>{@code idle}: one thread polls an idle channel 500 times with {@code tryReceive(1 ms)}
 *       (each poll's park lasts its whole timeout, so the channel is learnt to be idle).
 * </ul>
 */
public final class PlatformWaitCost {
    private static final int VALUES = 200_000;
    private static final int SLOW_VALUES = 2_000;
    private static final long SLOW_GAP_NANOS = 200_000;
    private static final int IDLE_POLLS = 500;

    private PlatformWaitCost() {}

    /**
     * Runs each scenario once to warm up, then {@code args[0]} times (default 4), printing one line
     * per measured run.
     *
     * @param args the number of rounds, optional
     * @throws Exception if a scenario fails
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        for (String scenario : List.of("mpsc", "pairs", "slow", "idle")) {
            run(scenario);
            for (int r = 0; r < rounds; r++) {
                long wall = System.nanoTime();
                long cpu = processCpuNanos();
                run(scenario);
                System.out.printf(
                        "%-5s wall %6.0f ms  cpu %6.0f ms%n",
                        scenario, (System.nanoTime() - wall) / 1e6, (processCpuNanos() - cpu) / 1e6);
            }
        }
    }

    private static void run(String scenario) throws Exception {
        List<Thread> threads = new ArrayList<>();
        switch (scenario) {
            case "mpsc" -> {
                int senders = 16;
                Channel<Integer> ch = Channel.newBufferedChannel(16);
                for (int p = 0; p < senders; p++) {
                    threads.add(start(() -> sendAll(ch, VALUES / senders, 0)));
                }
                threads.add(start(() -> receiveAll(ch, VALUES / senders * senders)));
            }
            case "pairs" -> {
                for (int p = 0; p < 4; p++) {
                    Channel<Integer> ch = Channel.newRendezvousChannel();
                    threads.add(start(() -> sendAll(ch, VALUES / 4, 0)));
                    threads.add(start(() -> receiveAll(ch, VALUES / 4)));
                }
            }
            case "slow" -> {
                Channel<Integer> ch = Channel.newRendezvousChannel();
                threads.add(start(() -> sendAll(ch, SLOW_VALUES, SLOW_GAP_NANOS)));
                threads.add(start(() -> receiveAll(ch, SLOW_VALUES)));
            }
            case "idle" -> {
                Channel<Integer> ch = Channel.newRendezvousChannel();
                threads.add(start(() -> {
                    for (int i = 0; i < IDLE_POLLS; i++) {
                        ch.tryReceive(Duration.ofMillis(1));
                    }
                }));
            }
            default -> throw new IllegalArgumentException(scenario);
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    private interface Body {
        void run() throws InterruptedException;
    }

    private static Thread start(Body body) {
        return Thread.ofPlatform().start(() -> {
            try {
                body.run();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void sendAll(Channel<Integer> ch, int n, long gapNanos) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            long until = System.nanoTime() + gapNanos;
            while (gapNanos > 0 && System.nanoTime() - until < 0) {
                Thread.onSpinWait(); // busy, like a producer doing work between values
            }
            ch.send(i);
        }
    }

    private static void receiveAll(Channel<Integer> ch, int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            ch.receive();
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
