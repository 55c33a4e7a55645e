package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/**
 * The channel's field layout, as the running JVM lays it out: the senders' words, the receivers'
 * words and the read-mostly fields lie at least a cache line apart, so that no two of the groups
 * share a line (see {@link ChannelCounters}). With compact object headers (JDK 25) this fails:
 * the JVM then fills a gap beside {@code senders} with {@code receiveSegment}; the fix measured
 * for it was not kept (see {@link ChannelCounters}), so the suite runs with the default header.
 */
class ChannelLayoutTest {
    private static final int LINE = 64;

    /**
     * {@code jdk.internal.misc.Unsafe.objectFieldOffset(Field)}, found reflectively: the surefire
     * runs export the package to this module ({@code --add-exports}); javac's {@code --release}
     * cannot.
     */
    private static final Object UNSAFE;
    private static final Method OFFSET;
    private static final int REFERENCE_SIZE;

    static {
        try {
            Class<?> u = Class.forName("jdk.internal.misc.Unsafe");
            UNSAFE = u.getMethod("getUnsafe").invoke(null);
            OFFSET = u.getMethod("objectFieldOffset", Field.class);
            REFERENCE_SIZE = (int) u.getMethod("arrayIndexScale", Class.class).invoke(UNSAFE, Object[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static long offset(Field f) {
        try {
            return (long) OFFSET.invoke(UNSAFE, f);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theSendersTheReceiversAndTheReadMostlyFieldsNeverShareACacheLine() {
        List<long[]> senders = group(SendersField.class);
        List<long[]> receivers = group(ReceiversField.class);
        List<long[]> readMostly = new ArrayList<>(group(ChannelState.class));
        readMostly.addAll(group(Channel.class));
        readMostly.addAll(group(ChannelCounters.class)); // birthJournal
        String layout = describe();
        assertApart(senders, receivers, "senders / receivers", layout);
        assertApart(senders, readMostly, "senders / read-mostly fields", layout);
        assertApart(receivers, readMostly, "receivers / read-mostly fields", layout);
    }

    /** {offset, size} of each instance field declared by {@code c}. */
    private static List<long[]> group(Class<?> c) {
        List<long[]> g = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                g.add(new long[] {offset(f), sizeOf(f.getType())});
            }
        }
        assertTrue(!g.isEmpty(), c.getName());
        return g;
    }

    private static long sizeOf(Class<?> type) {
        if (type == long.class || type == double.class) {
            return 8;
        }
        if (type == int.class || type == float.class) {
            return 4;
        }
        if (type == short.class || type == char.class) {
            return 2;
        }
        if (type == byte.class || type == boolean.class) {
            return 1;
        }
        return REFERENCE_SIZE;
    }

    /**
     * Whether every field of {@code a} and every field of {@code b} are at least a line apart:
     * then no placement of the object (8-byte aligned) puts two of them on one line.
     */
    private static void assertApart(List<long[]> a, List<long[]> b, String what, String layout) {
        for (long[] x : a) {
            for (long[] y : b) {
                long gap = x[0] < y[0] ? y[0] - (x[0] + x[1]) : x[0] - (y[0] + y[1]);
                assertTrue(gap >= LINE - 1, what + ": fields at " + x[0] + " and " + y[0] + " in " + layout);
            }
        }
    }

    private static String describe() {
        StringBuilder sb = new StringBuilder();
        for (Class<?> c = Channel.class; c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    sb.append(' ').append(f.getName()).append('@').append(offset(f));
                }
            }
        }
        return sb.toString();
    }
}
