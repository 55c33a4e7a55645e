package dev.weft.stress.repro;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelClosed;

/**
 * Repro (single-threaded, deterministic): after {@code done()}, a rejected {@code trySend} leaves
 * {@code isClosedForReceive()} false on buffered and unlimited channels, while {@code
 * tryReceiveOrClosed()} and {@code closedForReceive()} report {@code ChannelDone}; when the
 * rejected sends race the close, {@code closedForReceive()} returns {@code null} too. Found by
 * Lincheck ({@code IsClosedForReceiveLincheckTest}) and {@code Kotlinx1419CloseLinearizableTest}.
 * Exits 1 while the bug is present.
 */
public final class IsClosedForReceiveAfterRejectedSend {
    private IsClosedForReceiveAfterRejectedSend() {}

    public static void main(String[] args) {
        boolean bug = false;
        for (int capacity : new int[] {0, 1, 16, -1}) {
            Channel<Integer> ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
            ch.done();
            Object send = ch.trySendOrClosed(3);
            boolean closed = ch.isClosedForReceive();
            System.out.printf("capacity %s: done(); trySendOrClosed(3) -> %s; isClosedForReceive() -> %s%n",
                    capacity < 0 ? "unlimited" : capacity, send.getClass().getSimpleName(), closed);
            bug |= !closed;
        }
        // Concurrent variant: sends racing the close. After the sender saw the close and everything
        // sent was received (tryReceiveOrClosed() -> ChannelDone), closedForReceive() must not be null.
        for (int capacity : new int[] {16, -1}) {
            int nulls = 0;
            for (int i = 0; i < 2000; i++) {
                Channel<Integer> ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
                Thread sender = Thread.ofPlatform().start(() -> {
                    int k = 0;
                    Object o;
                    while (!((o = ch.trySendOrClosed(k)) instanceof ChannelClosed)) {
                        k += o == null ? 1 : 0;
                    }
                    ch.trySendOrClosed(-1);
                });
                for (int spin = 0; spin < i % 50; spin++) {
                    Thread.onSpinWait();
                }
                ch.done();
                try {
                    sender.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                while (!(ch.tryReceiveOrClosed() instanceof ChannelClosed)) {
                    // drain
                }
                if (ch.closedForReceive() == null) {
                    nulls++;
                }
            }
            System.out.printf("capacity %s, sends racing done(), drained: closedForReceive() null in %d of 2000%n",
                    capacity < 0 ? "unlimited" : capacity, nulls);
            bug |= nulls > 0;
        }
        System.out.println(bug ? "BUG: the closed-for-receive queries say open on a closed, drained channel" : "ok");
        System.exit(bug ? 1 : 0);
    }
}
