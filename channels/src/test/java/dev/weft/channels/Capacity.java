package dev.weft.channels;

/**
 * The capacities every channel test runs with: rendezvous, small and larger buffers, unlimited.
 * Use as {@code @ParameterizedTest @EnumSource(Capacity.class)}.
 */
enum Capacity {
    RENDEZVOUS(0),
    ONE(1),
    TWO(2),
    SIXTEEN(16),
    HUNDRED(100),
    UNLIMITED(-1);

    private final int value;

    Capacity(int value) {
        this.value = value;
    }

    /** Creates a fresh channel of this capacity. */
    <T> Channel<T> newChannel() {
        return switch (this) {
            case RENDEZVOUS -> Channel.newRendezvousChannel();
            case UNLIMITED -> Channel.newUnlimitedChannel();
            default -> Channel.newBufferedChannel(value);
        };
    }

    boolean isRendezvous() {
        return value == 0;
    }

    boolean isUnlimited() {
        return value < 0;
    }

    /** Whether a sender can be made to wait (rendezvous or a full buffer). */
    boolean isBounded() {
        return !isUnlimited();
    }

    /** The buffer size: 0 for rendezvous; only meaningful for bounded channels. */
    int buffer() {
        if (isUnlimited()) {
            throw new IllegalStateException("unlimited");
        }
        return value;
    }

    /** How many values fit in without a receiver; for unlimited a "large" number that is cheap to test. */
    int fillableWithoutReceiver() {
        return isUnlimited() ? 10_000 : value;
    }
}
