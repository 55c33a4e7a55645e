package dev.weft.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A counter of the floor benchmarks ({@link CellFloor}, {@link CellPathFloor}), alone on its cache
 * lines: 128 bytes of padding on each side, through the class hierarchy (a superclass's fields come
 * first in the object).
 */
@SuppressWarnings("unused")
final class PaddedCounter extends PaddedCounterValue {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedCounterValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private long q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, qa, qb, qc, qd, qe, qf;

    PaddedCounter(long initial) {
        value = initial;
    }

    /** Its value before a getAndIncrement. */
    long next() {
        return (long) VALUE.getAndAdd(this, 1L);
    }

    /** A volatile read of its value. */
    long get() {
        return value;
    }
}

/** Padding before a {@link PaddedCounter}'s value. */
@SuppressWarnings("unused")
abstract class PaddedCounterPad {
    private long p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, pa, pb, pc, pd, pe, pf;
}

/**
 * A {@link PaddedCounter}'s value: a long, so that the field layout cannot move it into the 4-byte
 * gap after the object header, ahead of the padding (an int could go there).
 */
abstract class PaddedCounterValue extends PaddedCounterPad {
    volatile long value;
}
