package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Unit tests of the spin policy ({@link Spin}) and of waiting in a cell. */
@Timeout(30)
class SpinPolicyTest {

    @Test
    void aWaitThatTheSpinSatisfiedGrowsTheBudgetUpToTheCeiling() {
        Spin spin = new Spin();
        assertEquals(Waiting.INITIAL_SPINS, spin.budget());
        spin.record(true, 10);
        assertEquals(Math.max(Waiting.INITIAL_SPINS, 10) * 2 + 8, spin.budget());
        for (int n = 0; n < 20; n++) {
            spin.record(true, 0);
        }
        assertEquals(Waiting.VIRTUAL_SPINS, spin.budget());
    }

    @Test
    void channelsWithALargeBufferTakeTheirOwnCeilingWhichByDefaultIsTheSame() {
        for (Channel<Integer> ch : List.of(new Channel<Integer>(), new Channel<Integer>(1), new Channel<Integer>(15))) {
            assertEquals(Waiting.VIRTUAL_SPINS, ch.spin.ceiling(), "capacity " + ch.capacity);
        }
        List<Channel<Integer>> large =
                List.of(new Channel<Integer>(16), new Channel<Integer>(100), Channel.<Integer>newUnlimitedChannel());
        for (Channel<Integer> ch : large) {
            assertEquals(Waiting.VIRTUAL_SPINS_BUFFERED, ch.spin.ceiling(), "capacity " + ch.capacity);
            if (Waiting.VIRTUAL_SPINS_BUFFERED == 0) { // the second run of the suite (see channels/pom.xml)
                ch.spin.record(true, 100); // a won spin (which a zero budget cannot have) does not grow it
                for (int n = 0; n < 10_000; n++) {
                    assertEquals(0, ch.spin.budget(), "capacity " + ch.capacity + ": no spin, not even to probe");
                }
            }
        }
        if (System.getProperty("weft.spins.virtualBuffered") == null) {
            assertEquals(Waiting.VIRTUAL_SPINS, Waiting.VIRTUAL_SPINS_BUFFERED,
                    "the default follows weft.spins.virtual");
        }
    }

    @Test
    void aPairParksAtOnceInChannelsThatTakeTheRule() throws Exception {
        Thread a = Thread.ofVirtual().unstarted(() -> {});
        Thread b = Thread.ofVirtual().unstarted(() -> {});
        Thread c = Thread.ofVirtual().unstarted(() -> {});
        Spin spin = new Spin(Waiting.VIRTUAL_SPINS, true);
        assertFalse(spin.parkAtOnce(a, true, 0), "a side's first wait spins");
        assertFalse(spin.parkAtOnce(a, true, 16), "no receiver waited yet: not known to be a pair");
        assertFalse(spin.parkAtOnce(b, false, 0), "the receiving side's first wait spins");
        assertFalse(spin.isPair(), "one wait of the receiver shows too little");
        assertFalse(spin.parkAtOnce(a, true, 32), "the receiver waited once only: not yet a pair");
        assertFalse(spin.isPair());
        assertTrue(spin.parkAtOnce(b, false, 16), "one thread on each side, each waited twice: a pair");
        assertTrue(spin.isPair());
        assertTrue(spin.parkAtOnce(a, true, 48));
        assertFalse(spin.parkAtOnce(c, true, 64), "a second sender: no longer a pair");
        assertFalse(spin.isPair());
        assertFalse(spin.parkAtOnce(b, false, 32), "for either side");
        assertFalse(spin.parkAtOnce(a, true, 80), "for good");
        Spin off = new Spin(Waiting.VIRTUAL_SPINS, false);
        for (int n = 0; n < 4; n++) {
            assertFalse(off.parkAtOnce(a, true, n), "a channel without the rule never parks at once");
        }
        assertFalse(off.isPair());
    }

    @Test
    void aSideWhoseThreadsNeverWaitMakesNoPair() {
        Thread consumer = Thread.ofVirtual().unstarted(() -> {});
        Spin spin = new Spin(Waiting.VIRTUAL_SPINS, true);
        for (int n = 0; n < 100; n++) {
            assertFalse(spin.parkAtOnce(consumer, false, 16L * n),
                    "a consumer whose producers never wait (fan-in into an unlimited channel) keeps spinning");
        }
    }

    @Test
    void aPairWhoseWaitsAreRoundTripsSpinsAgainAndTriesParkingLater() {
        Thread a = Thread.ofVirtual().unstarted(() -> {});
        Thread b = Thread.ofVirtual().unstarted(() -> {});
        Spin spin = new Spin(Waiting.VIRTUAL_SPINS, true);
        assertFalse(spin.parkAtOnce(b, true, 0), "the sending side's one thread");
        assertFalse(spin.parkAtOnce(b, true, 16), "no receiver has waited yet: not a pair");
        long cell = 0;
        assertFalse(spin.parkAtOnce(a, false, cell++), "first wait");
        for (int n = 0; n < Waiting.PAIR_STRIKES + 1; n++) {
            assertTrue(spin.parkAtOnce(a, false, cell++), "park-at-once mode: the entry and its strikes");
        }
        for (int n = 0; n < Waiting.PAIR_RETRY_AFTER; n++) {
            assertFalse(spin.parkAtOnce(a, false, cell), "after " + Waiting.PAIR_STRIKES + " round trips: spin");
            cell += 1 + 15 * (n % 2); // bursts or not: the side spins until the retry
        }
        assertTrue(spin.parkAtOnce(a, false, cell), "then it tries park-at-once again");
        cell += 16;
        for (int n = 0; n < 100; n++) {
            assertTrue(spin.parkAtOnce(a, false, cell), "waits a burst apart keep the mode");
            cell += 2 + n % 16;
        }
    }

    @Test
    void aSideStaysAPairSideWhenItsRoundTripFallbackCountsBackToARetry() {
        // review of 3e55e30: single() read "mode != 0", so the moment a side's fallback counted
        // back to 0 the pair looked like no pair (and a final isPair() check could fail)
        Thread a = Thread.ofVirtual().unstarted(() -> {});
        Thread b = Thread.ofVirtual().unstarted(() -> {});
        Spin spin = new Spin(Waiting.VIRTUAL_SPINS, true);
        spin.parkAtOnce(b, true, 0);
        spin.parkAtOnce(b, true, 16);
        long cell = 0;
        for (int n = 0; n < Waiting.PAIR_STRIKES + 2; n++) {
            spin.parkAtOnce(a, false, cell++); // enters park-at-once mode, then strikes out
        }
        for (int n = 0; n < Waiting.PAIR_RETRY_AFTER; n++) {
            spin.parkAtOnce(a, false, cell += 16);
            assertTrue(spin.isPair(), "one thread per side, each waited twice: a pair, after wait " + n);
        }
    }

    @Test
    void newChannelsStartWhereTheSecondWaitsOfNewChannelsBeforeThemLeftTheStart() {
        Spin.Start start = new Spin.Start(true);
        assertEquals(Waiting.INITIAL_SPINS, start.budget());
        for (int c = 0; c < 6; c++) { // a crowd of short-lived channels: their spins fail
            Spin spin = new Spin(Waiting.VIRTUAL_SPINS, false, start);
            assertEquals(Waiting.INITIAL_SPINS >> c, spin.budget(), "channel " + c);
            spin.record(false, spin.budget()); // the first recorded wait only trains the channel
            assertEquals(Waiting.INITIAL_SPINS >> c, start.budget(), "channel " + c);
            spin.record(false, spin.budget()); // the second one trains the start
            spin.record(false, 0); // later ones do not
            assertEquals(Waiting.INITIAL_SPINS >> (c + 1), start.budget(), "after channel " + c);
        }
        assertEquals(0, start.budget());
        int probing = 0;
        for (int c = 0; c < 3_200; c++) {
            int b = new Spin(Waiting.VIRTUAL_SPINS, false, start).budget();
            if (b == Waiting.PROBE_SPINS) {
                probing++;
            }
        }
        assertTrue(probing > 0 && probing < 3_200 / 4, "about one new channel in 32 starts with a probe: " + probing);
        Spin late;
        do {
            late = new Spin(Waiting.VIRTUAL_SPINS, false, start);
        } while (late.budget() != 0);
        for (int n = 0; n < 100; n++) {
            int budget = late.budget();
            assertTrue(budget == 0 || budget == Waiting.PROBE_SPINS, "starts at 0 and only probes: " + budget);
        }
        late.record(true, 5); // a probe that won
        late.record(true, 5);
        assertEquals(5 * 2 + 8, start.budget(), "a won spin raises the start");
        for (int c = 0; c < 4; c++) {
            Spin spin = new Spin(Waiting.VIRTUAL_SPINS, false, start);
            spin.record(true, 200);
            spin.record(true, 200);
        }
        assertEquals(Waiting.INITIAL_SPINS, start.budget(), "never above the fixed start");
        assertTrue(new Spin(4, false, start).budget() <= 4, "the ceiling caps the start");

        Spin.Start fixed = new Spin.Start(false); // weft.spins.learnStart=0
        for (int c = 0; c < 10; c++) {
            Spin spin = new Spin(Waiting.VIRTUAL_SPINS, false, fixed);
            spin.record(false, 32);
            spin.record(false, 16);
        }
        assertEquals(Waiting.INITIAL_SPINS, fixed.budget());
        assertEquals(!"0".equals(System.getProperty("weft.spins.learnStart")), Config.LEARN_SPIN_START);
        // which channels learn it: large buffers and unlimited ones
        assertSame(Spin.Start.JVM, Spin.Start.of(Waiting.LARGE_BUFFER));
        assertSame(Spin.Start.JVM, Spin.Start.of(-1));
        assertSame(Spin.Start.FIXED, Spin.Start.of(0));
        assertSame(Spin.Start.FIXED, Spin.Start.of(Waiting.LARGE_BUFFER - 1));
        Spin.Start.FIXED.learn(false, 32);
        assertEquals(Waiting.INITIAL_SPINS, Spin.Start.FIXED.budget());
    }

    @Test
    void whichChannelsTakeThePairRule() {
        // which channels take it: large buffers and unlimited ones, unless weft.spins.repeatWaiterParks=0
        boolean on = !"0".equals(System.getProperty("weft.spins.repeatWaiterParks"));
        assertEquals(false, Waiting.repeatWaiterParks(0));
        assertEquals(false, Waiting.repeatWaiterParks(Waiting.LARGE_BUFFER - 1));
        assertEquals(on, Waiting.repeatWaiterParks(Waiting.LARGE_BUFFER));
        assertEquals(on, Waiting.repeatWaiterParks(-1));
    }

    @Test
    void aPairOfVirtualThreadsBecomesAPairAndLosesNoValue() throws Exception {
        Channel<Integer> ch = new Channel<>(Waiting.LARGE_BUFFER);
        assumeTrue(Waiting.repeatWaiterParks(ch.capacity));
        int n = 20_000;
        Forked<Void> consumer = Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int v = 0; v < n; v++) {
                assertEquals(v, ch.receive());
                if (v % 1_000 == 999) {
                    Thread.sleep(1); // the producer fills the buffer and waits
                }
            }
        });
        Forked<Void> producer = Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int v = 0; v < n; v++) {
                ch.send(v);
                if (v % 1_000 == 500) {
                    Thread.sleep(1); // the consumer drains the buffer and waits
                }
            }
        });
        producer.get(java.time.Duration.ofSeconds(30));
        consumer.get(java.time.Duration.ofSeconds(30)); // rethrows the consumer's failure
        assertTrue(ch.spin.isPair(), "both sides waited, each with its one thread: " + ch.dumpCells());
        assertNull(ch.tryReceive(), "nothing left over");
    }

    @Test
    void aRequestAndItsReplyNeverMakeAPairSinceTheirSendersNeverWait() throws Exception {
        // RequestReplyBenchmark's shape: only receives wait, so neither channel may take the
        // pair rule, whatever the receivers do (a rule that counted a side without waits would)
        Channel<Integer> requests = new Channel<>(Waiting.LARGE_BUFFER);
        Channel<Integer> replies = new Channel<>(Waiting.LARGE_BUFFER);
        assumeTrue(Waiting.repeatWaiterParks(requests.capacity));
        int n = 5_000;
        Forked<Void> server = Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int v = 0; v < n; v++) {
                int request = requests.receive();
                if (v % 500 == 499) {
                    Thread.sleep(1); // the client's receive surely waits, and parks
                }
                replies.send(request + 1);
            }
        });
        Forked<Void> client = Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int v = 0; v < n; v++) {
                requests.send(v);
                assertEquals(v + 1, replies.receive());
                if (v % 500 == 250) {
                    Thread.sleep(1); // the server's receive surely waits, and parks
                }
            }
        });
        client.get(java.time.Duration.ofSeconds(30));
        server.get(java.time.Duration.ofSeconds(30));
        for (Channel<Integer> ch : List.of(requests, replies)) {
            String which = ch == requests ? "requests" : "replies";
            assertTrue(ch.spin.sideSingle(false), which + ": its one receiving thread waited, twice or more");
            assertFalse(ch.spin.sideWaited(true), which + ": no send waited");
            assertFalse(ch.spin.isPair(), which + ": so the channel is no pair");
        }
    }

    @Test
    void theCeilingCapsTheStartTheGrowthAndTheProbeAndZeroNeverSpins() {
        Spin none = new Spin(0, false);
        none.record(true, 100); // even a won spin (which a zero budget cannot have) stays at 0
        for (int n = 0; n < 10_000; n++) {
            assertEquals(0, none.budget(), "a ceiling of 0 never spins, not even to probe");
        }
        Spin small = new Spin(4, false);
        assertEquals(4, small.budget());
        small.record(true, 3);
        assertEquals(4, small.budget());
        for (int n = 0; n < 10; n++) {
            small.record(false, 4);
        }
        for (int n = 0; n < 10_000; n++) {
            int b = small.budget();
            assertTrue(b == 0 || b == 4, "a probe never spins past the ceiling: " + b);
        }
    }

    @Test
    void aWaitThatHadToParkHalvesTheBudgetAndZeroIsProbedAgainSometimes() {
        Spin spin = new Spin();
        spin.record(true, 60); // 128
        spin.record(false, 128);
        assertEquals(64, spin.budget());
        for (int n = 0; n < 10; n++) {
            spin.record(false, 0);
        }
        int probes = 0;
        for (int n = 0; n < 10_000; n++) {
            int b = spin.budget();
            assertTrue(b == 0 || b == Waiting.PROBE_SPINS, "budget " + b);
            probes += b == Waiting.PROBE_SPINS ? 1 : 0;
        }
        assertTrue(probes > 0 && probes < 10_000, "a zero budget is probed on some waits only: " + probes);
    }

    @Test
    void platformThreadsSpinForAFixedWindowWhateverTheBudgetThenPark() throws Exception {
        Spin spin = new Spin();
        spin.record(true, 60); // a virtual budget of 128, which the platform wait must not touch
        Segment seg = new Segment(0, null, 0);
        Object[] result = new Object[1];
        Thread waiter = Thread.ofPlatform().unstarted(() -> result[0] =
                Waiting.spinThenPark(seg, 0, Thread.currentThread(), null, 0L, spin, this, false));
        assertTrue(seg.casState(0, null, waiter));
        waiter.start();
        // the window is bounded: the waiter parks (a spin that never ended would stay RUNNABLE)
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (waiter.getState() != Thread.State.WAITING) {
            assertTrue(System.nanoTime() - until < 0, "the platform waiter never parked: " + waiter.getState());
            Thread.sleep(1);
        }
        assertEquals(128, spin.budget(), "a platform wait leaves the virtual budget alone");
        assertTrue(seg.casState(0, waiter, Cells.State.DONE));
        java.util.concurrent.locks.LockSupport.unpark(waiter);
        waiter.join(10_000);
        assertSame(Cells.State.DONE, result[0]);
    }

    @Test
    void aPlatformSpinLastsItsWholeWindowWhenNothingChanges() {
        Segment seg = new Segment(0, null, 0);
        Thread me = Thread.currentThread();
        assertTrue(seg.casState(0, null, me));
        long window = TimeUnit.MILLISECONDS.toNanos(20);
        long start = System.nanoTime();
        assertNull(Waiting.spinPlatform(seg, 0, me, null, 0L, window), "no result: the caller parks");
        assertTrue(System.nanoTime() - start >= window, "the spin ended before its window");
        assertSame(me, seg.lvState(0));
    }

    @Test
    void anInterruptedWaitWhoseDeadlinePassedReportsTheInterruptOnBothKindsOfThread() throws Exception {
        for (boolean virtual : new boolean[] {false, true}) {
            Object[] result = new Object[1];
            Thread t = (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).unstarted(() -> {
                Thread me = Thread.currentThread();
                Segment seg = new Segment(0, null, 0);
                seg.casState(0, null, me);
                long deadline = Waiting.deadline(1);
                while (System.nanoTime() - deadline <= 0) {
                    Thread.onSpinWait();
                }
                me.interrupt();
                result[0] = Waiting.spinThenPark(seg, 0, me, null, deadline, new Spin(), this, false);
            });
            t.start();
            t.join(10_000);
            assertSame(Result.INTERRUPTED, result[0], virtual ? "virtual" : "platform");
        }
    }

    @Test
    void aLongPlatformParkShortensTheWindowUntilASpinWinsOrAParkIsShortAgain() {
        Spin spin = new Spin();
        long w = Waiting.PLATFORM_SPIN_NANOS;
        assumeTrue(w > 0, "no window on one CPU");
        assertEquals(w, spin.platformWindow());
        spin.recordPlatform(false, w); // a convoy's park: about one wake-up
        assertEquals(w, spin.platformWindow());
        spin.recordPlatform(false, Waiting.IDLE_PARK_FACTOR * w + 1); // an idle channel
        assertEquals(w >> 3, spin.platformWindow());
        spin.recordPlatform(false, w);
        assertEquals(w, spin.platformWindow(), "a short park restores the window");
        spin.recordPlatform(false, Long.MAX_VALUE);
        spin.recordPlatform(true, 0L);
        assertEquals(w, spin.platformWindow(), "a spin that won restores the window");
    }

    @Test
    void aPlatformWaitThatTimedOutInItsSpinOrWasInterruptedLeavesTheIdleMarkAlone() {
        long w = Waiting.PLATFORM_SPIN_NANOS;
        assumeTrue(w > 0, "no window on one CPU");
        Spin spin = new Spin();
        spin.recordPlatform(false, Long.MAX_VALUE); // idle: an eighth of the window
        Segment seg = new Segment(0, null, 0);
        Thread me = Thread.currentThread();
        assertTrue(seg.casState(0, null, me));
        long deadline = Waiting.deadline(1); // passes inside the spin
        assertSame(Result.TIMED_OUT, Waiting.spinThenPark(seg, 0, me, null, deadline, spin, this, false));
        assertEquals(w >> 3, spin.platformWindow(), "a timeout in the spin is no spin that won");
        me.interrupt();
        assertSame(Result.INTERRUPTED, Waiting.spinThenPark(seg, 0, me, null, 0L, spin, this, false));
        assertEquals(w >> 3, spin.platformWindow(), "an interrupted wait is no short park");
    }

    @Test
    void backoffCountsItsSteps() {
        int step = 0;
        for (int n = 0; n < 100; n++) {
            step = Waiting.backoff(step); // spins first, then yields; never blocks
        }
        assertEquals(100, step);
    }

    @Test
    void aPlainWaitReturnsTheStateThatReplacedTheWaiter() throws Exception {
        Segment seg = new Segment(0, null, 0);
        Thread me = Thread.currentThread();
        assertTrue(seg.casState(0, null, me));
        Thread partner = Thread.ofPlatform().start(() -> {
            sleep(50);
            seg.casState(0, me, Cells.State.DONE);
            java.util.concurrent.locks.LockSupport.unpark(me);
        });
        assertSame(Cells.State.DONE, Waiting.spinThenPark(seg, 0, me, null, 0L, new Spin(), this, false));
        partner.join();
    }

    @Test
    void aPlainWaitReportsTimeoutAndInterruptAndLeavesTheCellToTheCaller() {
        Segment seg = new Segment(0, null, 0);
        Thread me = Thread.currentThread();
        assertTrue(seg.casState(0, null, me));
        long deadline = Waiting.deadline(TimeUnit.MILLISECONDS.toNanos(20));
        assertSame(Result.TIMED_OUT, Waiting.spinThenPark(seg, 0, me, null, deadline, new Spin(), this, false));
        me.interrupt();
        assertSame(Result.INTERRUPTED, Waiting.spinThenPark(seg, 0, me, null, 0L, new Spin(), this, false));
        assertFalse(Thread.interrupted(), "the flag is cleared when reported");
        assertSame(me, seg.lvState(0), "the caller withdraws, not the wait loop");
    }

    @Test
    void aSelectWaitEndsOnATerminalStateOrAReregistrationRequest() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        SelectOp op = new SelectOp(ch.receiveClause(), null);
        Thread me = Thread.currentThread();
        op.svState(SelectOp.WAITING);
        Thread partner = Thread.ofPlatform().start(() -> {
            sleep(50);
            op.requestReregistration();
        });
        assertSame(SelectOp.WAITING, Waiting.spinThenPark(null, 0, me, op, 0L, new Spin(), op, false));
        partner.join();
        assertTrue(op.takeReregisterRequest());
        partner = Thread.ofPlatform().start(() -> {
            sleep(50);
            op.casState(SelectOp.WAITING, SelectOp.selected(0));
            op.wake();
        });
        assertSame(SelectOp.selected(0), Waiting.spinThenPark(null, 0, me, op, 0L, new Spin(), op, false));
        partner.join();
    }

    @Test
    void aWrappedWaiterIsStillHeld() {
        Thread me = Thread.currentThread();
        assertTrue(Cells.holds(me, me));
        assertTrue(Cells.holds(new Cells.WaiterEB(me), me));
        assertFalse(Cells.holds(Cells.State.DONE, me));
        assertTrue(Cells.isWaiter(new Cells.WaiterEB(me)));
        assertFalse(Cells.isWaiter(null));
        assertFalse(Cells.isWaiter(Cells.State.CLAIMED));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
