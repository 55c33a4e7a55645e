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
 *
 * <p>A select first tries its first clause straight from the caller's array, without a copy; a
 * review of that change found two holes in its first draft, which {@link
 * #firstClauseFlippedAmongNullAValidAndADuplicateClause} catches: a {@link NullPointerException}
 * from the check of an entry that became null between two reads, and a first clause read again
 * after the check, which could be a second clause on a channel already in the array.
 */
@Timeout(60)
class SelectArrayChangedMeanwhileTest {
    @Test
    void firstClauseFlippedAmongNullAValidAndADuplicateClause() throws Exception {
        Channel<String> empty = Channel.newBufferedChannel(4);
        Channel<String> full = Channel.newBufferedChannel(4);
        full.send("B");
        SelectClause<String> receiveB = full.receiveClause();
        SelectClause<String> valid = empty.receiveClause();
        SelectClause<String> duplicate = full.receiveClause(v -> "mixed " + v);
        SelectClause<?>[] clauses = {valid, receiveB};
        AtomicBoolean stop = new AtomicBoolean();
        Thread flipper = Thread.ofPlatform().daemon().start(() -> {
            int k = 0;
            while (!stop.get()) {
                clauses[0] = switch (k++ % 3) {
                    case 0 -> null;
                    case 1 -> valid;
                    default -> duplicate;
                };
            }
        });
        AtomicReference<Object> wrong = new AtomicReference<>();
        int refused = 0;
        int selected = 0;
        long end = System.nanoTime() + 2_000_000_000L;
        try {
            while (System.nanoTime() < end && wrong.get() == null) {
                Object r;
                try {
                    r = Select.selectOrClosed(clauses);
                } catch (IllegalArgumentException e) {
                    refused++; // a null clause or two clauses on full: an invalid select
                    continue;
                } catch (RuntimeException e) {
                    wrong.set(e);
                    break;
                }
                if ("B".equals(r)) {
                    selected++;
                    full.send("B"); // one value in full, always
                } else {
                    wrong.set("the select returned " + r); // "mixed B": checked one array, ran another
                }
            }
        } finally {
            stop.set(true);
            flipper.join();
        }
        assertNull(wrong.get(), "a select on a changing array did something no state of it allows");
        assertEquals("B", full.tryReceive());
        System.out.println("first clause flipped: " + selected + " selected, " + refused + " refused");
    }

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
