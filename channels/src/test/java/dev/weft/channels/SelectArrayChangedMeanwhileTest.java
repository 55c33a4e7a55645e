package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A select works on one private copy of its clause array: a caller (wrongly) changing the array
 * from another thread during the select gets one of the two selects it could have meant, never a
 * mix. Found by a fresh-eyes review of a2496bf, which chose the path (with or without a default
 * clause) from the caller's array and then copied it: the copy could then have a default clause
 * on the waiting path (a NullPointerException) or lose it on the default path (a receive clause
 * that returned null without receiving). On a2496bf this fails within about half a second.
 */
@Timeout(60)
class SelectArrayChangedMeanwhileTest {
    @Test
    void lastClauseFlippedBetweenAReceiveAndADefault() throws Exception {
        Channel<String> empty = Channel.newBufferedChannel(4);
        Channel<String> full = Channel.newBufferedChannel(4);
        full.send("B");
        SelectClause<String> receiveB = full.receiveClause();
        SelectClause<String> orD = Select.defaultClause("D");
        SelectClause<?>[] clauses = {empty.receiveClause(), receiveB};
        AtomicBoolean stop = new AtomicBoolean();
        Thread flipper = Thread.ofPlatform().daemon().start(() -> {
            boolean d = false;
            while (!stop.get()) {
                clauses[1] = (d = !d) ? orD : receiveB;
            }
        });
        AtomicReference<Object> wrong = new AtomicReference<>();
        long end = System.nanoTime() + 2_000_000_000L;
        try {
            while (System.nanoTime() < end && wrong.get() == null) {
                Object r;
                try {
                    r = Select.selectOrClosed(clauses);
                } catch (RuntimeException e) {
                    wrong.set(e);
                    break;
                }
                if ("B".equals(r)) {
                    full.send("B"); // one value in full, always
                } else if (!"D".equals(r)) {
                    wrong.set("the select returned " + r);
                }
            }
        } finally {
            stop.set(true);
            flipper.join();
        }
        assertNull(wrong.get(), "a select on a changing array returned neither B nor D");
        assertEquals("B", full.tryReceive());
    }
}
