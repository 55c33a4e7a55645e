package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/** The JFR events {@code dev.weft.ChannelWait} and {@code dev.weft.SelectWait}, recorded in-process. */
class JfrWaitEventsTest {
    private static final Duration WAIT = Duration.ofMillis(60);

    @Test
    void waitsLongerThanTheThresholdAreRecordedWithTheirOutcome() throws Exception {
        List<RecordedEvent> events;
        try (Recording rec = new Recording()) {
            rec.enable("dev.weft.ChannelWait").withThreshold(Duration.ofMillis(20));
            rec.enable("dev.weft.SelectWait").withThreshold(Duration.ofMillis(20));
            rec.start();

            Channel<String> orders = Channel.newBufferedChannel("orders", 16);
            Forked<String> receiver = Forked.virtual(orders::receive).awaitBlocked();
            Thread.sleep(WAIT.toMillis());
            orders.send("o1"); // rendezvous after >= 60 ms

            assertNull(orders.tryReceive(WAIT)); // timeout

            Channel<String> acks = Channel.newRendezvousChannel("acks");
            Forked<Void> sender = Forked.run(ThreadKind.PLATFORM, () -> acks.send("a")).awaitBlocked();
            Thread.sleep(WAIT.toMillis());
            sender.interrupt(); // interrupt
            assertInstanceOf(InterruptedException.class, sender.failure()); // withdrawn before going on

            Forked<Object> closed = Forked.virtual(acks::receiveOrClosed).awaitBlocked();
            Thread.sleep(WAIT.toMillis());
            acks.done(); // close

            Channel<String> quick = Channel.newBufferedChannel("quick", 1);
            quick.send("q");
            quick.receive(); // no wait: no event

            assertThrows(TimeoutException.class,
                    () -> Select.selectWithin(WAIT, orders.receiveClause(), quick.receiveClause()));
            Forked<String> sel = Forked.virtual(() -> Select.select(orders.receiveClause(), quick.receiveClause()))
                    .awaitBlocked();
            Thread.sleep(WAIT.toMillis());
            quick.send("picked");

            assertEquals("o1", receiver.get());
            assertInstanceOf(ChannelDone.class, closed.get());
            assertEquals("picked", sel.get());
            rec.stop();
            events = read(rec);
        }
        List<String> waits = events.stream()
                .filter(e -> e.getEventType().getName().equals("dev.weft.ChannelWait"))
                .map(e -> e.getString("operation") + " " + e.getString("outcome") + " " + e.getString("channel"))
                .sorted()
                .toList();
        assertEquals(List.of(
                "receive close Channel[acks, capacity 0]",
                "receive rendezvous Channel[orders, capacity 16]",
                "receive timeout Channel[orders, capacity 16]",
                "send interrupt Channel[acks, capacity 0]"), waits);
        for (RecordedEvent e : events) {
            assertTrue(e.getDuration().compareTo(Duration.ofMillis(20)) >= 0, e.toString());
            assertTrue(e.getStackTrace() != null && !e.getStackTrace().getFrames().isEmpty(), e.toString());
        }
        List<String> selects = events.stream()
                .filter(e -> e.getEventType().getName().equals("dev.weft.SelectWait"))
                .map(e -> e.getString("outcome") + " " + e.getInt("selectedClause") + " " + e.getString("clauses"))
                .sorted()
                .toList();
        String clauses = "[receive on Channel[orders, capacity 16], receive on Channel[quick, capacity 1]]";
        assertEquals(List.of("rendezvous 1 " + clauses, "timeout -1 " + clauses), selects);
    }

    /**
     * A receiver whose sender is hit by an Error in its cell is withdrawn and goes on in another
     * cell: its first wait ends with {@code retry}, its second with {@code rendezvous}.
     */
    @Test
    void aWaitEndedByAPartnerHitByAnErrorIsRecordedAsRetry() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        List<RecordedEvent> events;
        try (Recording rec = new Recording()) {
            rec.enable("dev.weft.ChannelWait").withThreshold(Duration.ofMillis(20));
            rec.start();
            Channel<String> jobs = Channel.newRendezvousChannel("jobs");
            Forked<String> receiver = Forked.virtual(jobs::receive).awaitBlocked();
            Thread.sleep(WAIT.toMillis());
            Thread me = Thread.currentThread();
            Faults.probe = point -> {
                if (point.equals(Faults.SEND_CLAIMED) && Thread.currentThread() == me) {
                    throw new StackOverflowError("injected");
                }
            };
            try {
                assertThrows(StackOverflowError.class, () -> jobs.send("lost"));
            } finally {
                Faults.probe = null;
            }
            Forked.awaitBlocked(receiver.thread()); // waiting again, in the next cell
            Thread.sleep(WAIT.toMillis());
            jobs.send("j1");
            assertEquals("j1", receiver.get());
            rec.stop();
            events = read(rec);
        }
        List<String> waits = events.stream()
                .filter(e -> e.getEventType().getName().equals("dev.weft.ChannelWait"))
                .map(e -> e.getString("operation") + " " + e.getString("outcome") + " " + e.getString("channel"))
                .sorted()
                .toList();
        assertEquals(List.of(
                "receive rendezvous Channel[jobs, capacity 0]",
                "receive retry Channel[jobs, capacity 0]"), waits);
    }

    @Test
    void disabledByDefault() throws Exception {
        List<RecordedEvent> events;
        try (Recording rec = new Recording(Configuration.getConfiguration("profile"))) {
            rec.start();
            Channel<String> ch = Channel.newRendezvousChannel("idle");
            assertNull(ch.tryReceive(WAIT));
            assertThrows(TimeoutException.class, () -> Select.selectWithin(WAIT, ch.receiveClause()));
            rec.stop();
            events = read(rec);
        }
        assertTrue(events.stream().noneMatch(e -> e.getEventType().getName().startsWith("dev.weft.")));
    }

    private static List<RecordedEvent> read(Recording rec) throws Exception {
        Path file = Files.createTempFile("weft", ".jfr");
        try {
            rec.dump(file);
            return RecordingFile.readAllEvents(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
