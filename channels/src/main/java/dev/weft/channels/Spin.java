package dev.weft.channels;

import static dev.weft.channels.Waiting.IDLE_PARK_FACTOR;
import static dev.weft.channels.Waiting.INITIAL_SPINS;
import static dev.weft.channels.Waiting.PAIR_RETRY_AFTER;
import static dev.weft.channels.Waiting.PAIR_STRIKES;
import static dev.weft.channels.Waiting.PLATFORM_SPIN_NANOS;
import static dev.weft.channels.Waiting.PROBE_SPINS;
import static dev.weft.channels.Waiting.VIRTUAL_SPINS;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What one channel's waits have learnt: the adaptive spin budget of virtual threads, whether
 * platform threads found the channel idle, and whether the channel is a pair ({@link
 * #parkAtOnce}). Racy on purpose (a lost update only blurs the estimate); written only when
 * it changes (so that steady waits leave the line shared by both sides), except a pair side's
 * last wait. The policy itself is
 * described in {@link Waiting}.
 *
 * <p><b>Where a new channel's budget starts</b>, for a channel with a buffer of {@link
 * Waiting#LARGE_BUFFER} or more or an unlimited one, is learnt JVM-wide ({@link Start}): from the
 * second recorded virtual wait of each such new channel (the first is often its partner's
 * start-up).
 * Where many short-lived channels each carry a few values between many more virtual threads than
 * carriers (a pipeline of thousands of stages, thousands of worker pairs), no channel lives long
 * enough to learn that spinning does not pay there, and every new channel would spin its first
 * waits in vain; with the learnt start they begin at 0 (and still probe, see {@link #budget}).
 * The start never rises above {@link Waiting#INITIAL_SPINS}, so a channel never starts with more
 * spin than before. {@code weft.spins.learnStart=0} turns this off.
 */
final class Spin {
    private static final VarHandle SENDERS;
    private static final VarHandle RECEIVERS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SENDERS = l.findVarHandle(Spin.class, "senders", Side.class);
            RECEIVERS = l.findVarHandle(Spin.class, "receivers", Side.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The most spins of a virtual wait: {@link #virtualSpinCeiling} of the channel's capacity,
     * or a test's value.
     */
    private final int ceiling;
    /** Whether a repeat waiter parks at once (see {@link #parkAtOnce}). */
    private final boolean repeatWaiterParks;
    private int budget;
    private boolean platformIdle;
    /** Where this channel's budget started, learnt JVM-wide; told of its second recorded wait. */
    private final Start start;
    /** The virtual waits this channel recorded, counted up to 2 (see {@link Start}). */
    private int recorded;
    /**
     * The pair state of each side (see {@link #parkAtOnce}). Invariant: {@code null} until the
     * side's first recorded wait in a channel that takes the rule, then one {@link Side} for good
     * (set once, by a CAS from {@code null}, so that no wait's record goes to a lost copy); a
     * channel whose side never waits makes none.
     */
    private volatile Side senders;
    /** The receiving side's pair state; the invariant of {@link #senders}. */
    private volatile Side receivers;

    Spin() {
        this(VIRTUAL_SPINS, false);
    }

    /** As below, with a start of its own (tests), not the JVM's. */
    Spin(int ceiling, boolean repeatWaiterParks) {
        this(ceiling, repeatWaiterParks, new Start(true));
    }

    /**
     * A policy whose virtual waits never spin more than {@code ceiling} times (0: never), and
     * whose repeat waiters park at once if {@code repeatWaiterParks}; its budget starts where
     * {@code start} says and tells it what this channel learnt.
     */
    Spin(int ceiling, boolean repeatWaiterParks, Start start) {
        this.ceiling = ceiling;
        this.repeatWaiterParks = repeatWaiterParks;
        this.start = start;
        this.budget = Math.min(start.startFor(), ceiling);
    }

    /** Side {@code send} (senders) or receivers, made now if this is its first recorded wait. */
    private Side ownSide(boolean send) {
        Side s = send ? senders : receivers;
        if (s != null) {
            return s;
        }
        Side mine = new Side();
        Object found = (send ? SENDERS : RECEIVERS).compareAndExchange(this, (Side) null, mine);
        return found == null ? mine : (Side) found;
    }

    /** Whether side {@code s} (null: it never waited) counts as a pair's side. */
    private static boolean single(Side s) {
        return s != null && s.single();
    }

    /**
     * Whether virtual thread {@code me}, about to wait as a sender ({@code send}) or a
     * receiver in the cell with index {@code index}, parks at once without spinning. Only in a
     * channel that takes the rule ({@link #repeatWaiterParks}), and only while the channel is
     * a pair: each side has seen one virtual waiting thread, which waited at least twice,
     * and never a second one (a pipeline stage's producer and
     * consumer; a side with several waiting threads keeps the adaptive spin for good). A side
     * whose threads never wait (the producers of an unlimited channel, say) shows nothing, so
     * such a channel never counts as a pair. Only plain waits of virtual threads are seen:
     * platform threads and selects neither take the rule nor count as a side's thread. A
     * pair's partner, once unparked, runs next on the parker's carrier and
     * fills or drains the buffer meanwhile, so a parked wait is followed by a burst of
     * operations that do not wait. When it is not (a consumer that waits for every value in turn,
     * because its producer, which filled the buffer before and so made the channel a pair, now
     * sends more slowly than it consumes: {@link #PAIR_STRIKES} waits in a row in that mode, each
     * one cell after the previous, counted whether or not the other side was a pair yet), the side spins again for {@link #PAIR_RETRY_AFTER} waits,
     * then tries once more. Records the wait; racy (a lost update only delays a switch).
     */
    boolean parkAtOnce(Thread me, boolean send, long index) {
        if (!repeatWaiterParks) {
            return false;
        }
        return ownSide(send).parkAtOnce(me.threadId(), index) && single(send ? receivers : senders);
    }

    /** Whether the channel counts as a pair now (see {@link #parkAtOnce}); for tests. */
    boolean isPair() {
        return repeatWaiterParks && single(senders) && single(receivers);
    }

    /**
     * For tests: whether the sending ({@code send}) or receiving side of a channel that takes the
     * rule has had a waiting virtual thread at all, and whether it counts as a pair's side ({@link
     * Side#single}).
     */
    boolean sideWaited(boolean send) {
        Side s = send ? senders : receivers;
        return repeatWaiterParks && s != null && s.thread != 0L;
    }

    /** See {@link #sideWaited}. */
    boolean sideSingle(boolean send) {
        return repeatWaiterParks && single(send ? senders : receivers);
    }

    /** The most spins of a virtual wait on this channel. */
    int ceiling() {
        return ceiling;
    }

    /** The spin budget of a virtual thread's next wait. */
    int budget() {
        int b = budget;
        if (b == 0 && probeNow()) {
            return Math.min(PROBE_SPINS, ceiling);
        }
        return b;
    }

    /** Records a virtual thread's wait: the spin won after {@code used} spins, or it parked. */
    void record(boolean spinWon, int used) {
        int b = budget;
        int next = spinWon ? grown(b, used, ceiling) : b >> 1;
        if (next != b) {
            budget = next; // a steady budget stores nothing: the line stays shared by both sides
        }
        int r = recorded;
        if (r < 2) {
            recorded = r + 1;
            if (r == 1) {
                start.learn(spinWon, used);
            }
        }
    }

    /**
     * The spin budget that new channels start with, learnt from the second recorded virtual wait
     * of each new channel (see the class javadoc): a spin that won raises it (up to {@link
     * Waiting#INITIAL_SPINS}) as a channel's budget grows, a wait that parked halves it. Racy on
     * purpose, like the rest of {@link Spin}; written only when it changes, so a crowd that has
     * driven it to 0 no longer writes it.
     */
    static final class Start {
        /** The JVM's, for channels with a large buffer or an unlimited one. */
        static final Start JVM = new Start(Config.LEARN_SPIN_START);

        /** For every other channel: always {@link Waiting#INITIAL_SPINS}. */
        static final Start FIXED = new Start(false);

        /**
         * The start of a channel of {@code capacity} (-1: unlimited): learnt for a buffer of
         * {@link Waiting#LARGE_BUFFER} or more or an unlimited one, fixed for the others. A pair
         * on a new rendezvous channel that starts without a spin parks at its first waits, and
         * its two threads then take turns on one carrier (the parked convoy, which a spin of a
         * few hundred ns cannot leave): measured, the select pair's fast forks 7% slower with a
         * learnt start there and Chained 0 no faster. In a large buffer a pair parks at once
         * anyway ({@link Spin#parkAtOnce}).
         */
        static Start of(int capacity) {
            return capacity < 0 || capacity >= Waiting.LARGE_BUFFER ? JVM : FIXED;
        }

        /** Whether it learns at all; if not, every channel starts at {@link Waiting#INITIAL_SPINS}. */
        private final boolean learns;
        private int budget = INITIAL_SPINS;

        Start(boolean learns) {
            this.learns = learns;
        }

        /** The learnt start (before a channel's ceiling). */
        int budget() {
            return budget;
        }

        /**
         * What a new channel starts with: the learnt start; while that is 0, one new channel in
         * 32 starts at {@link Waiting#PROBE_SPINS} instead, so that the start is sampled again at
         * the rate channels are made (a channel at 0 records only its probes, one wait in 32, and
         * teaches the start only with its second record, which a channel of a few waits seldom
         * has; review of 2c740f7).
         */
        int startFor() {
            int b = budget;
            if (b == 0 && probeNow()) {
                return PROBE_SPINS;
            }
            return b;
        }

        /** A new channel's second recorded wait: the spin won after {@code used} spins, or it parked. */
        void learn(boolean spinWon, int used) {
            if (!learns) {
                return;
            }
            int b = budget;
            int next = spinWon ? grown(b, used, INITIAL_SPINS) : b >> 1;
            if (next != b) {
                budget = next;
            }
        }
    }

    /** A budget {@code b} after a spin that won after {@code used} spins, up to {@code cap}. */
    private static int grown(int b, int used, int cap) {
        return Math.min(Math.max(b, used) * 2 + 8, cap);
    }

    /** Whether a budget of 0 probes this time: one time in 32. */
    private static boolean probeNow() {
        return (ThreadLocalRandom.current().nextInt() & 31) == 0;
    }

    /** How long a platform thread's next wait spins, in ns. */
    long platformWindow() {
        return platformIdle ? PLATFORM_SPIN_NANOS >> 3 : PLATFORM_SPIN_NANOS;
    }

    /** Records a platform thread's wait: its spin won, or it parked for {@code parkedNanos}. */
    void recordPlatform(boolean spinWon, long parkedNanos) {
        boolean idle = !spinWon && parkedNanos > IDLE_PARK_FACTOR * PLATFORM_SPIN_NANOS;
        if (idle != platformIdle) {
            platformIdle = idle;
        }
    }

    /** One side (senders or receivers) of a channel, as {@link Spin#parkAtOnce} sees its waits. */
    static final class Side {
        /** The id of the side's first virtual waiting thread (0: none yet). */
        private long thread;
        /** Whether a second thread waited on this side: the channel is no pair, for good. */
        private boolean many;
        /** The cell index of the side's last wait. */
        private long lastWait;
        /** Whether the side's one thread waited a second time before any other thread did. */
        private boolean waitedTwice;
        /**
         * Above 0: park-at-once mode, the strikes left (waits one cell after the previous one)
         * before it ends; below 0: spinning, minus the waits left until the mode is tried again;
         * 0: the next wait tries it.
         */
        private int mode;

        /**
         * Whether this side has had exactly one waiting thread so far, and it waited at least
         * twice (a side whose threads seldom wait, such as the producers of a fan-in, shows one
         * thread after a single wait; a second wait by the same thread before any other thread
         * waits is much stronger evidence).
         */
        boolean single() {
            return waitedTwice && !many;
        }

        /**
         * Records a wait of thread {@code id} in cell {@code index}; whether it parks at once, as
         * far as this side can tell (see {@link Spin#parkAtOnce}).
         */
        boolean parkAtOnce(long id, long index) {
            if (many) {
                return false;
            }
            if (thread != id) {
                if (thread == 0L) {
                    thread = id; // a side's first wait spins
                } else {
                    many = true;
                }
                lastWait = index;
                return false;
            }
            long previous = lastWait;
            lastWait = index;
            if (!waitedTwice) {
                waitedTwice = true;
            }
            int m = mode;
            if (m < 0) {
                mode = m + 1;
                return false;
            }
            if (m == 0) {
                mode = PAIR_STRIKES;
            } else if (index - previous <= 1) {
                mode = m == 1 ? -PAIR_RETRY_AFTER : m - 1; // a round trip, not a burst
            } else if (m != PAIR_STRIKES) {
                mode = PAIR_STRIKES;
            }
            return true;
        }
    }
}
