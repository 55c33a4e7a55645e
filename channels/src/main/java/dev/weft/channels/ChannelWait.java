package dev.weft.channels;

/**
 * What a thread that waits in a send or a receive parks on ({@code LockSupport.park(blocker)}):
 * one object per channel and operation kind, made by the channel's first wait of that kind
 * ({@link ChannelState#waitBlocker}), so later waits allocate nothing for it and a channel that
 * never waits makes none.
 *
 * <p>Thread dumps show the blocker's class, which names the operation: {@code jstack} prints
 * {@code - parking to wait for <0x...> (a dev.weft.channels.ChannelWait$Receive)} and {@code jcmd
 * <pid> Thread.dump_to_file} prints {@code parking to wait for
 * <dev.weft.channels.ChannelWait$Receive@1b6d3586>} (and {@code "parkBlocker"} in its JSON form).
 * {@link java.util.concurrent.locks.LockSupport#getBlocker(Thread)} returns the object itself,
 * whose {@code toString()} names the channel as well, for example {@code receive on
 * Channel[orders, capacity 16]}; the text is built only when asked for.
 */
abstract sealed class ChannelWait permits ChannelWait.Send, ChannelWait.Receive {
    final ChannelState channel;

    private ChannelWait(ChannelState channel) {
        this.channel = channel;
    }

    /** The operation, as JFR events and {@code toString()} name it. */
    abstract String operation();

    @Override
    public String toString() {
        return operation() + " on " + channel.describe();
    }

    /** The blocker of a thread waiting in a send on {@link #channel}. */
    static final class Send extends ChannelWait {
        Send(ChannelState channel) {
            super(channel);
        }

        @Override
        String operation() {
            return WaitEvents.SEND;
        }
    }

    /** The blocker of a thread waiting in a receive on {@link #channel}. */
    static final class Receive extends ChannelWait {
        Receive(ChannelState channel) {
            super(channel);
        }

        @Override
        String operation() {
            return WaitEvents.RECEIVE;
        }
    }
}
