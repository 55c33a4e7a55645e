package dev.weft.stress.jcstress;

import dev.weft.channels.Channel;
import java.time.Duration;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Shared body of the {@code CloseObserved*} scenarios (one jcstress class per close kind and
 * capacity; jcstress needs one class per scenario): close as a linearizable event, seen by an
 * observer that is not the closing thread.
 *
 * <p>State: a channel of the given capacity; buffered and unlimited channels hold value 1 from the
 * constructor; a virtual thread started by the constructor sends 2 ({@code sendOrClosed}; it waits
 * while the channel is full, and on a rendezvous channel until a receiver comes), so that most of
 * the time a waiting sender or a second buffered value is there when the actors start, and
 * sometimes its send is still in flight. The closer calls {@code done()} or {@code error(t)}. The
 * observer calls {@code isClosedForReceive()}, {@code receiveOrClosed()}, {@code
 * isClosedForReceive()}, {@code receiveOrClosed()}. Neither receive can wait forever: each one has
 * value 1, value 2 or the close as a partner.
 *
 * <p>Forbidden above all: the observer sees the channel closed for receive ({@code true}, or a
 * {@code ChannelDone}/{@code ChannelError}) and then receives a value; after {@code error(t)}, a
 * value received after the observer saw the error. Also checked: FIFO, a value sent before {@code
 * done()} is received, and the sender's result agrees with what was received.
 *
 * <p>Result: (isClosedForReceive 1/0, receiveOrClosed code, isClosedForReceive 1/0,
 * receiveOrClosed code, arbiter: the sender's sendOrClosed code (0 sent), arbiter:
 * tryReceiveOrClosed code). The acceptable outcomes of each scenario are exactly the results of
 * the sequential orders of close, send and the observer's four calls (a receive that finds nothing
 * completes when the send or the close comes).
 */
final class CloseObserver {
    static final RuntimeException BOOM = new RuntimeException("boom");

    private final Channel<Integer> ch;
    private final Thread sender;
    private volatile int sent = Codes.WEIRD;

    CloseObserver(int capacity) {
        ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
        if (capacity != 0 && !ch.trySend(1)) {
            throw new IllegalStateException("could not buffer the first value");
        }
        sender = Thread.ofVirtual().start(this::send);
    }

    private void send() {
        try {
            sent = Codes.of(ch.sendOrClosed(2));
        } catch (InterruptedException e) {
            sent = Codes.INTERRUPTED;
        }
    }

    void done() {
        ch.doneOrClosed();
    }

    void error() {
        ch.errorOrClosed(BOOM);
    }

    void observe(IIIIII_Result r) {
        r.r1 = Codes.bool(ch.isClosedForReceive());
        r.r2 = receive();
        r.r3 = Codes.bool(ch.isClosedForReceive());
        r.r4 = receive();
    }

    private int receive() {
        try {
            return Codes.of(ch.receiveOrClosed());
        } catch (InterruptedException e) {
            return Codes.INTERRUPTED;
        }
    }

    void check(IIIIII_Result r) {
        try {
            // the send always ends: its value is received, or the close refuses or wakes it
            r.r5 = sender.join(Duration.ofSeconds(10)) ? sent : Codes.TIMEOUT;
        } catch (InterruptedException e) {
            r.r5 = Codes.INTERRUPTED;
        }
        r.r6 = Codes.of(ch.tryReceiveOrClosed());
    }
}
