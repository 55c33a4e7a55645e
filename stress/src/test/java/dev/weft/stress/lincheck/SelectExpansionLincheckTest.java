package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import java.util.Set;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;

/**
 * Select vs select vs buffer expansion under Lincheck's model checker: the blind spot of issue 8
 * that let Bug 3 through (a select livelocked with another select when buffer expansion withdrew
 * its registration).
 *
 * <p>C is a full buffered(1) channel, D a rendezvous channel. Three threads:
 *
 * <ul>
 *   <li>A = {@code select(D.receive, C.receive)};
 *   <li>B = {@code select(C.send(y), D.send(z))};
 *   <li>R = {@code C.receive()}, which takes C's value and expands C's buffer over the cell where
 *       B's send waits.
 * </ul>
 *
 * <p>Select ids are the owners' thread ids, so A's thread is created before B's: id(A) &lt;
 * id(B), the order Bug 3 needs (A waits for the registering B). Every interleaving must end: C
 * and D together offer two values (x and one of B's) to two receivers (R and A), and A and B
 * either meet on D or B's send lands in C. Every outcome is checked to be one of those
 * exchanges, with no value lost or duplicated.
 *
 * <p>On a0d3073 the checker finds the interleaving of the issue and reports "Concurrent test has
 * hung ... All unfinished threads are in livelock due to non-terminating loops": B registers its
 * send in C's cell 1 and is switched out before its D clause; R takes x, expands the buffer to
 * cell 1, reads one receiver and is switched out before its CAS; A registers on D, claims C's cell
 * 1, meets the registering B (larger id) and publishes Pending(B, cell 1); R withdraws B's
 * registration; B, registering on D, helps A's now stale Pending forever while A waits for B. It
 * needs two chosen context switches (the rest are forced by the spins), one of them at a single
 * position (before R's CAS). Lincheck's exploration is deterministic: on a0d3073 it found the
 * hang within 3,750 and 5,000 invocations, not within 2,500, so the default is 5,000
 * ({@code -Dlincheck.selectExpansionInvocations=N} overrides it).
 *
 * <p>The channels are captured by the threads' lambdas rather than kept in static fields: Lincheck
 * treats them as shared once a thread that reaches them starts. The static-field reads of an
 * earlier version added switch points, and 5,000 invocations did not find the hang with them. Runs with the stress module's segment size (1): each
 * cell is its own segment, which changes the cell numbers but not the race. The deterministic
 * replay of the same interleaving is {@code SelectExpansionReplayTest} in the channels module.
 */
public class SelectExpansionLincheckTest {
    static final int INVOCATIONS = Integer.getInteger("lincheck.selectExpansionInvocations", 5000);

    /** Every allowed outcome, as "A|B|R|left in C". */
    static final Set<String> OUTCOMES = Set.of(
            // A and B meet on D; R takes x
            "A:z@D|B:D|R:x|C:-",
            // B's y lands in C; A and R take x and y in either order
            "A:x@C|B:C|R:y|C:-",
            "A:y@C|B:C|R:x|C:-");

    @Test
    void selectVsSelectVsBufferExpansion() {
        Lincheck.runConcurrentTest(INVOCATIONS, BlockingScenariosLincheckTest.wrap(() -> {
            // captured by the threads' lambdas: Lincheck sees them as shared once a thread starts
            Channel<String> c = Channel.newBufferedChannel(1);
            Channel<String> d = Channel.newRendezvousChannel();
            Object[] results = new Object[3];
            BlockingScenariosLincheckTest.check(c.trySend("x"), "C filled");
            // A's thread is created first: its select gets the smaller id
            Thread a = new Thread(BlockingScenariosLincheckTest.wrap(() -> results[0] = Select.select(
                    d.receiveClause(v -> v + "@D"), c.receiveClause(v -> v + "@C"))));
            Thread b = new Thread(BlockingScenariosLincheckTest.wrap(() -> results[1] = Select.select(
                    c.sendClause("y", () -> "C"), d.sendClause("z", () -> "D"))));
            Thread r = new Thread(BlockingScenariosLincheckTest.wrap(() -> results[2] = c.receive()));
            BlockingScenariosLincheckTest.check(a.threadId() < b.threadId(), "id(A) < id(B)");
            a.start();
            b.start();
            r.start();
            a.join();
            b.join();
            r.join();
            String left = c.tryReceive();
            String outcome = "A:" + results[0] + "|B:" + results[1] + "|R:" + results[2] + "|C:"
                    + (left == null ? "-" : left);
            BlockingScenariosLincheckTest.check(OUTCOMES.contains(outcome), outcome);
        }));
    }
}
