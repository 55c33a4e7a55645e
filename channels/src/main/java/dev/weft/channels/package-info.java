/**
 * Go-style channels for virtual (and platform) threads: rendezvous, buffered and unlimited
 * {@link dev.weft.channels.Channel}s with closing, interruption-safe and timed operations, and
 * {@link dev.weft.channels.Select}.
 *
 * <p>The names and semantics follow jox 1.x ({@code com.softwaremill.jox}), so migrating is a
 * matter of changing imports; the README's "Migrating from jox" table maps every public type and
 * method of jox 1.1.2 to weft and names the few differences.
 *
 * <h2>Interruption and timeouts: one rule</h2>
 *
 * <p>An operation throws {@link java.lang.InterruptedException} only when it has to wait: when it
 * can complete at once, or fails at once because its timeout is zero, it leaves the thread's
 * interrupt flag as it is. So {@code tryReceive(Duration.ZERO)}, {@code trySend(v,
 * Duration.ZERO)}, {@code selectWithin(Duration.ZERO, ...)} and {@code
 * selectOrClosedWithin(Duration.ZERO, ...)} never throw it, and a {@code receive()} that finds a
 * value does not either. An operation that waits checks the flag when it starts waiting and
 * while it waits; if it throws, it had no effect.
 *
 * <h2>Errors inside an operation</h2>
 *
 * <p>If an {@link java.lang.Error} (such as {@link java.lang.StackOverflowError} or {@link
 * java.lang.OutOfMemoryError}) is thrown inside an operation, the operation gives up the cell it
 * was working on, as if it had been interrupted, and a select withdraws every registration, so
 * the channel stays usable and nobody waits for the failed operation. A send that had already
 * handed over or buffered its value keeps that effect; a receive or select that had already
 * taken a value loses it with the error.
 */
package dev.weft.channels;
