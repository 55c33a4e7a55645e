package dev.weft.channels;

import dev.weft.channels.internal.SegmentWatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The traffic patterns of the soak tests ({@link SoakPatterns}: a consumer that waits on every
 * receive, a select loop that waits on every select, timed-out senders, interrupted receivers,
 * try-operation churn), in this JVM and at a smaller count, on every channel kind: afterwards the
 * segments the channels' pointers went through must be collectable ({@link SegmentWatch}). Issue 8
 * Bug 1 (completed segments kept through {@code prev} whenever receivers waited) fails the first
 * two patterns and the interrupted receivers, while {@code reachableSegments()} saw nothing.
 * {@link MemorySoakTest} runs the same patterns with millions of messages in a 32 MiB heap.
 */
@Tag("memory")
@Timeout(120)
class TrafficMemoryTest {
    static Stream<Arguments> patternsAndKinds() {
        return SoakPatterns.PATTERNS.stream()
                .flatMap(p -> SoakPatterns.KINDS.stream().map(k -> Arguments.of(p, k)));
    }

    static int count(String pattern) {
        return switch (pattern) {
            case "timed-out-send" -> 100_000;
            default -> 20_000;
        };
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("patternsAndKinds")
    void segmentsAreCollectedAfterTheTraffic(String pattern, String kind) throws Exception {
        SoakPatterns.Soak soak = SoakPatterns.create(pattern, kind);
        int n = count(pattern);
        soak.run(n);
        for (SegmentWatch watch : soak.watches) {
            watch.assertCollected(pattern + " on " + kind + ", after " + n + " " + soak.unit(), soak.extraSegments());
        }
    }
}
