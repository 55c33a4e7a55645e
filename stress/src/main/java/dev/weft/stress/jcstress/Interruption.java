package dev.weft.stress.jcstress;

/**
 * A one-shot interrupt handshake for jcstress scenarios, so that every outcome terminates and no
 * interrupt leaks into the next sample run by the same actor thread.
 *
 * <ol>
 *   <li>The victim calls {@link #register()} before its blocking operation.
 *   <li>The interrupter calls {@link #interrupt()}: it waits for the victim to register, interrupts
 *       it once and marks the interrupt as delivered.
 *   <li>After its operation, the victim calls {@link #awaitAndClear()}: it waits until the interrupt
 *       was delivered (it always is), then clears and returns its interrupt flag.
 * </ol>
 */
final class Interruption {
    private volatile Thread victim;
    private volatile boolean delivered;

    void register() {
        victim = Thread.currentThread();
    }

    void interrupt() {
        Thread t;
        while ((t = victim) == null) {
            Thread.yield();
        }
        t.interrupt();
        delivered = true;
    }

    /** Returns whether the victim's interrupt flag was still set after its operation. */
    boolean awaitAndClear() {
        while (!delivered) {
            Thread.yield();
        }
        return Thread.interrupted();
    }
}
