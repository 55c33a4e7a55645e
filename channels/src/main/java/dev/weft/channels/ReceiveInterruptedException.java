package dev.weft.channels;

/**
 * Thrown by a channel's {@link java.util.Iterator} ({@code hasNext()}, {@code next()}) and by its
 * {@link java.util.stream.Stream} when the thread is interrupted while it waits for a value: those
 * methods cannot throw {@link InterruptedException}.
 *
 * <p>Before it is thrown, the thread's interrupt flag is set again, so code further up still sees
 * the interrupt. Like every interrupted receive, the interrupted wait consumed nothing: no value
 * is lost, and the iterator can be used again.
 */
public final class ReceiveInterruptedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param cause the {@link InterruptedException} that the receive threw
     */
    public ReceiveInterruptedException(InterruptedException cause) {
        super("interrupted while waiting for a value", cause);
    }

    /**
     * The interrupt.
     *
     * @return the {@link InterruptedException} that the receive threw
     */
    @Override
    public synchronized InterruptedException getCause() {
        return (InterruptedException) super.getCause();
    }
}
