package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The jox 1.1.2 behaviours that weft adopted for issue 9 (capacity -1, the static {@code
 * Sink.trySend}, {@code DEFAULT_BUFFER_SIZE}) and the one it deliberately keeps different (zero
 * timeouts). The migration table itself is checked by {@link JoxApiTableTest}; user classes that
 * implement the interfaces the jox way by {@link JoxStyleImplementationTest}.
 */
@Timeout(120)
class JoxCompatibilityTest {

    // ---------------------------------------------------------------- 1. capacity -1

    @Test
    void minusOneIsAnUnlimitedChannelFromTheFactoryAndTheConstructor() {
        assertUnlimited(Channel::newBufferedChannel);
        assertUnlimited(Channel::new);
    }

    private static void assertUnlimited(IntFunction<Channel<Integer>> factory) {
        Channel<Integer> ch = factory.apply(-1);
        int n = 10_000; // far beyond any buffer and many segments
        for (int i = 0; i < n; i++) {
            assertTrue(ch.trySend(i), "capacity -1 refused value " + i);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(i, ch.tryReceive());
        }
        assertNull(ch.tryReceive());
        assertTrue(ch.toString().contains("capacity unlimited"), ch.toString());
    }

    @Test
    void capacityBelowMinusOneIsRejectedWithAMessageThatNamesTheValidValues() {
        for (int capacity : new int[] {-2, -100, Integer.MIN_VALUE}) {
            IllegalArgumentException a =
                    assertThrows(IllegalArgumentException.class, () -> Channel.newBufferedChannel(capacity));
            IllegalArgumentException b = assertThrows(IllegalArgumentException.class, () -> new Channel<>(capacity));
            for (IllegalArgumentException e : new IllegalArgumentException[] {a, b}) {
                assertTrue(e.getMessage().contains("-1 (unlimited)"), e.getMessage());
                assertTrue(e.getMessage().endsWith("was " + capacity), e.getMessage());
            }
        }
    }

    // ---------------------------------------------------------------- 2. static Sink.trySend

    @Test
    void staticTrySendSendsToTheFirstSinkThatHasRoom() throws Exception {
        Channel<String> a = Channel.newBufferedChannel(1);
        Channel<String> b = Channel.newBufferedChannel(1);
        assertTrue(Sink.trySend("1", a, b));
        assertTrue(Sink.trySend("2", a, b));
        assertFalse(Sink.trySend("3", a, b)); // both full: nothing sent
        assertEquals("1", a.receive());
        assertEquals("2", b.receive());
        assertNull(a.tryReceive());
        assertNull(b.tryReceive());

        b.send("x");
        assertTrue(Sink.trySend("4", a, b));
        assertEquals("4", a.receive());
        assertTrue(Sink.trySend("5", b, a)); // order decides: b is full, a has room
        assertEquals("5", a.receive());
        assertEquals("x", b.receive());
    }

    @Test
    void staticTrySendToARendezvousSinkNeedsAWaitingReceiver() throws Exception {
        Channel<String> ch = Channel.newRendezvousChannel();
        assertFalse(Sink.trySend("nobody", ch));
        Forked<String> receiver = Forked.virtual(ch::receive).awaitBlocked();
        assertTrue(Sink.trySend("somebody", ch));
        assertEquals("somebody", receiver.get());
    }

    @Test
    void staticTrySendWithoutSinksSendsNothing() {
        assertFalse(Sink.trySend("v", (Sink<String>[]) null));
        @SuppressWarnings("unchecked")
        Sink<String>[] none = new Sink[0];
        assertFalse(Sink.trySend("v", none));
    }

    @Test
    void staticTrySendReportsClosedSinksAndRejectsBadArguments() {
        Channel<String> done = Channel.newBufferedChannel(1);
        done.done();
        Channel<String> open = Channel.newBufferedChannel(1);
        assertThrows(ChannelDoneException.class, () -> Sink.trySend("v", done, open));
        assertNull(open.tryReceive()); // the select completed no clause

        Channel<String> failed = Channel.newBufferedChannel(1);
        failed.error(new IllegalStateException("boom"));
        ChannelErrorException e = assertThrows(ChannelErrorException.class, () -> Sink.trySend("v", open, failed));
        assertEquals("boom", e.getCause().getMessage());
        assertNull(open.tryReceive()); // as in jox: an error wins over a sink with room

        assertThrows(NullPointerException.class, () -> Sink.trySend(null, open));
        assertThrows(NullPointerException.class, () -> Sink.trySend("v", open, null));
        assertThrows(IllegalArgumentException.class, () -> Sink.trySend("v", open, open));
    }

    /**
     * How javac resolves {@code Sink.trySend} now that weft has both jox's static {@code
     * trySend(T, Sink<T>...)} and its own instance {@code trySend(T, Duration)}: javac picks the
     * overload before it looks at static versus instance, so a {@code null} literal, which fits
     * both, is ambiguous. That is the documented behavior (README, migration table; javadoc of
     * the static method); every other form resolves as in jox.
     */
    @Test
    void staticTrySendOverloadResolution() throws Exception {
        InProcessJavac.Result nullLiteral = compileCall("boolean r = Sink.trySend(\"v\", null);");
        assertFalse(nullLiteral.compiled(), "Sink.trySend(v, null) should not compile");
        assertTrue(nullLiteral.diagnostics().contains("compiler.err.ref.ambiguous"), nullLiteral.diagnostics());
        assertTrue(nullLiteral.diagnostics().contains("trySend(T,java.time.Duration)"), nullLiteral.diagnostics());

        for (String fine : new String[] {
            "boolean r = Sink.trySend(\"v\", (Sink<String>[]) null);",
            "boolean r = Sink.trySend(\"v\", a);",
            "boolean r = Sink.trySend(\"v\", a, b);",
            "boolean r = a.trySend(\"v\", Duration.ofMillis(1));", // the timed instance method is unaffected
            "boolean r = a.trySend(\"v\");",
        }) {
            InProcessJavac.Result result = compileCall(fine);
            assertTrue(result.compiled(), fine + "\n" + result.diagnostics());
        }
    }

    private static InProcessJavac.Result compileCall(String statement) throws Exception {
        String source = """
                import dev.weft.channels.*;
                import java.time.Duration;
                public class OverloadProbe {
                    static void probe(Channel<String> a, Channel<String> b) throws Exception {
                        %s
                    }
                }
                """.formatted(statement);
        return InProcessJavac.compile("OverloadProbe", source);
    }

    // ---------------------------------------------------------------- 3. DEFAULT_BUFFER_SIZE

    @Test
    void defaultBufferSizeIs16AndIsTheCapacityOfTheDefaultChannel() throws Exception {
        assertEquals(16, Channel.DEFAULT_BUFFER_SIZE);
        Field f = Channel.class.getField("DEFAULT_BUFFER_SIZE");
        assertTrue(Modifier.isStatic(f.getModifiers()) && Modifier.isFinal(f.getModifiers()));
        Channel<Integer> ch = Channel.newBufferedDefaultChannel();
        for (int i = 0; i < Channel.DEFAULT_BUFFER_SIZE; i++) {
            assertTrue(ch.trySend(i), "value " + i + " should fit");
        }
        assertFalse(ch.trySend(-1));
    }

    // ---------------------------------------------------------------- 5. zero timeouts

    /** jox rejects {@code selectWithin(Duration.ZERO, ...)}; weft checks once (documented). */
    @Test
    void zeroTimeoutChecksOnceInsteadOfBeingRejected() throws Exception {
        Channel<String> ch = Channel.newBufferedChannel(1);
        assertThrows(TimeoutException.class, () -> Select.selectWithin(Duration.ZERO, ch.receiveClause()));
        assertEquals("none", Select.selectOrClosedWithin(Duration.ZERO, "none", ch.receiveClause()));
        assertNull(ch.tryReceive(Duration.ZERO));
        assertTrue(ch.trySend("a", Duration.ZERO));
        assertFalse(ch.trySend("b", Duration.ZERO));
        assertEquals("a", Select.selectWithin(Duration.ZERO, ch.receiveClause()));

        Duration negative = Duration.ofNanos(-1);
        assertThrows(IllegalArgumentException.class, () -> Select.selectWithin(negative, ch.receiveClause()));
        assertThrows(IllegalArgumentException.class, () -> ch.tryReceive(negative));
    }
}
