package dev.weft.channels;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One fault probe ({@link Faults#probe}) for a replay test with several held threads: it holds
 * each registered (thread, point) pair at its first arrival, at that pair's own {@link Gate}, or
 * throws an injected {@link StackOverflowError} there. Other threads and later arrivals pass.
 * Installing it replaces any probe; the test clears {@link Faults#probe} afterwards.
 */
final class Holds {
    private final Map<String, Gate> gates = new ConcurrentHashMap<>();
    private final Map<String, Boolean> failing = new ConcurrentHashMap<>();
    private final Map<String, Boolean> passed = new ConcurrentHashMap<>();

    Holds() {
        Faults.probe = point -> {
            String key = key(Thread.currentThread(), point);
            if (passed.putIfAbsent(key, Boolean.TRUE) != null) {
                return;
            }
            if (failing.containsKey(key)) {
                throw new StackOverflowError("injected at " + point);
            }
            Gate g = gates.get(key);
            if (g != null) {
                g.hold();
            } else {
                passed.remove(key); // not registered (yet): a later arrival may still be held
            }
        };
    }

    /** Holds {@code thread} the first time it reaches {@code point}; returns the gate. */
    Gate at(Thread thread, String point) {
        Gate g = new Gate();
        gates.put(key(thread, point), g);
        return g;
    }

    /** Throws an injected error in {@code thread} the first time it reaches {@code point}. */
    void failAt(Thread thread, String point) {
        failing.put(key(thread, point), Boolean.TRUE);
    }

    private static String key(Thread thread, String point) {
        return thread.threadId() + "@" + point;
    }
}
