package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The two-clause overloads of the select methods: javac binds a call with two clauses to them
 * (so other tests reach them too), and they behave as the varargs form does with the same two
 * clauses, which these tests reach through an explicit array: the same result, the same bias,
 * the same exception for bad input, and a channel that stays usable after it.
 */
@Timeout(30)
class SelectTwoClauseOverloadsTest {
    private static final String[] METHODS = {
        "select", "selectOrClosed", "selectWithin", "selectOrClosedWithin", "selectUnbiased",
        "selectUnbiasedOrClosed"
    };

    @Test
    void everyVarargsSelectHasAPublicStaticTwoClauseOverload() {
        for (String name : METHODS) {
            Method[] ms = Arrays.stream(Select.class.getMethods())
                    .filter(m -> m.getName().equals(name))
                    .toArray(Method[]::new);
            assertEquals(2, ms.length, name + ": the varargs form and one overload");
            Method varargs = Arrays.stream(ms).filter(Method::isVarArgs).findFirst().orElseThrow();
            Method two = Arrays.stream(ms).filter(m -> !m.isVarArgs()).findFirst().orElseThrow();
            assertTrue(Modifier.isStatic(two.getModifiers()), name);
            int fixed = varargs.getParameterCount() - 1;
            assertEquals(fixed + 2, two.getParameterCount(), name);
            assertEquals(SelectClause.class, two.getParameterTypes()[fixed], name);
            assertEquals(SelectClause.class, two.getParameterTypes()[fixed + 1], name);
            assertEquals(varargs.getReturnType(), two.getReturnType(), name);
        }
    }

    @Test
    void bothFormsPickTheFirstReadyClauseAndTheDefaultOnlyWhenNothingIsReady() throws Exception {
        Channel<String> a = Channel.newBufferedChannel(4);
        Channel<String> b = Channel.newBufferedChannel(4);
        a.send("a1");
        a.send("a2");
        b.send("b1");
        b.send("b2");
        assertEquals("a1", Select.select(a.receiveClause(), b.receiveClause()));
        assertEquals("a2", Select.select(new SelectClause<?>[] {a.receiveClause(), b.receiveClause()}));
        assertEquals("b1", Select.selectOrClosed(a.receiveClause(), b.receiveClause()));
        assertEquals("b2", Select.selectWithin(Duration.ofSeconds(1), b.receiveClause(), a.receiveClause()));
        assertEquals("none", Select.select(a.receiveClause(), Select.defaultClause("none")));
        assertEquals("none", Select.selectUnbiased(a.receiveClause(), Select.defaultClause("none")));
        assertEquals("none", Select.selectUnbiasedOrClosed(a.receiveClause(), Select.defaultClause("none")));
        assertThrows(TimeoutException.class, () -> Select.selectWithin(Duration.ZERO, a.receiveClause(), b.receiveClause()));
        assertEquals("late", Select.selectOrClosedWithin(Duration.ofMillis(1), "late", a.receiveClause(), b.receiveClause()));
        a.send("a3");
        assertEquals("a3", Select.selectUnbiased(a.receiveClause(), b.receiveClause()));
    }

    /**
     * Each overload passes its own bias and closed-handling flags on: with both clauses ready the
     * biased ones pick the first, the unbiased ones pick either; with a channel in error the
     * throwing ones throw and the others return the error.
     */
    @Test
    void eachOverloadKeepsItsBiasAndItsHandlingOfClosedChannels() throws Exception {
        Duration lng = Duration.ofSeconds(10);
        Channel<String> a = Channel.newBufferedChannel(1000);
        Channel<String> b = Channel.newBufferedChannel(1000);
        for (int i = 0; i < 200; i++) {
            a.send("a");
            b.send("b");
        }
        assertEquals("a", Select.select(a.receiveClause(), b.receiveClause()));
        assertEquals("a", Select.selectOrClosed(a.receiveClause(), b.receiveClause()));
        assertEquals("a", Select.selectWithin(lng, a.receiveClause(), b.receiveClause()));
        assertEquals("a", Select.selectOrClosedWithin(lng, "t", a.receiveClause(), b.receiveClause()));
        Set<Object> unbiased = new HashSet<>();
        Set<Object> unbiasedOrClosed = new HashSet<>();
        for (int i = 0; i < 60; i++) { // each misses a channel with probability 2^-59
            unbiased.add(Select.selectUnbiased(a.receiveClause(), b.receiveClause()));
            unbiasedOrClosed.add(Select.selectUnbiasedOrClosed(a.receiveClause(), b.receiveClause()));
        }
        assertEquals(Set.of("a", "b"), unbiased);
        assertEquals(Set.of("a", "b"), unbiasedOrClosed);

        b.error(new IllegalStateException("boom")); // checked before any clause is tried
        SelectClause<String> ra = a.receiveClause();
        SelectClause<String> rb = b.receiveClause();
        assertThrows(ChannelClosedException.class, () -> Select.select(ra, rb));
        assertThrows(ChannelClosedException.class, () -> Select.selectWithin(lng, ra, rb));
        assertThrows(ChannelClosedException.class, () -> Select.selectUnbiased(ra, rb));
        assertInstanceOf(ChannelError.class, Select.selectOrClosed(ra, rb));
        assertInstanceOf(ChannelError.class, Select.selectOrClosedWithin(lng, "t", ra, rb));
        assertInstanceOf(ChannelError.class, Select.selectUnbiasedOrClosed(ra, rb));
    }

    @Test
    void bothFormsRejectTheSameBadInputWithTheSameMessageAndTheChannelsStayUsable() throws Exception {
        Channel<String> a = Channel.newBufferedChannel(4);
        Channel<String> b = Channel.newBufferedChannel(4);
        SelectClause<String> ra = a.receiveClause();
        SelectClause<String> rb = b.receiveClause();
        SelectClause<String> dflt = Select.defaultClause("d");
        SelectClause<?>[][] bad = {
            {ra, null}, {null, rb}, {ra, a.receiveClause(v -> v)}, {dflt, rb}, {null, null}
        };
        for (SelectClause<?>[] pair : bad) {
            String two = assertThrows(IllegalArgumentException.class, () -> Select.select(pair[0], pair[1]))
                    .getMessage();
            String array = assertThrows(IllegalArgumentException.class, () -> Select.select(pair.clone()))
                    .getMessage();
            assertEquals(array, two, Arrays.toString(pair));
            assertThrows(IllegalArgumentException.class, () -> Select.selectOrClosed(pair[0], pair[1]));
            assertThrows(IllegalArgumentException.class, () -> Select.selectUnbiased(pair[0], pair[1]));
        }
        assertThrows(IllegalArgumentException.class, () -> Select.selectWithin(Duration.ofSeconds(-1), ra, rb));
        a.send("still usable");
        assertEquals("still usable", Select.select(ra, rb));
    }

    @Test
    void bothFormsReportAClosedChannelTheSameWay() throws Exception {
        Channel<String> a = Channel.newBufferedChannel(4);
        Channel<String> b = Channel.newBufferedChannel(4);
        b.error(new IllegalStateException("boom"));
        assertThrows(ChannelClosedException.class, () -> Select.select(a.receiveClause(), b.receiveClause()));
        assertThrows(ChannelClosedException.class,
                () -> Select.select(new SelectClause<?>[] {a.receiveClause(), b.receiveClause()}));
        assertInstanceOf(ChannelError.class, Select.selectOrClosed(a.receiveClause(), b.receiveClause()));
        assertInstanceOf(ChannelError.class,
                Select.selectOrClosed(new SelectClause<?>[] {a.receiveClause(), b.receiveClause()}));
    }

    @Test
    void aTwoClauseSelectThatWaitsIsCompletedByASender() throws Exception {
        Channel<Integer> a = new Channel<>();
        Channel<Integer> b = new Channel<>();
        Forked<Integer> selector = Forked.virtual(() -> Select.select(a.receiveClause(), b.receiveClause()));
        Forked.awaitBlocked(selector.thread());
        b.send(7);
        assertEquals(7, selector.get());
    }
}
