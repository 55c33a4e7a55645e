package dev.weft.bench;

/**
 * A channel received from through {@code select}: with one clause, or with a second clause on a
 * channel that never gets a value (the "cancellation channel" pattern). Public for the same reason
 * as {@link Chan}.
 */
public interface SelectChan extends Chan {

    /** {@code select(ch.receiveClause())}. */
    Integer selectOne() throws InterruptedException;

    /** {@code select(ch.receiveClause(), cancel.receiveClause())}, where cancel stays empty. */
    Integer selectWithCancel() throws InterruptedException;

    static SelectChan create(String impl) {
        return switch (impl) {
            case "weft" -> new WeftSelect();
            case "jox", "jox111" -> JoxFactory.forImpl(impl).select();
            default -> throw new IllegalArgumentException("no select for impl: " + impl);
        };
    }

    final class WeftSelect implements SelectChan {
        final dev.weft.channels.Channel<Integer> ch = new dev.weft.channels.Channel<>(0);
        final dev.weft.channels.Channel<Integer> cancel = new dev.weft.channels.Channel<>(0);

        @Override
        public void send(Integer value) throws InterruptedException {
            ch.send(value);
        }

        @Override
        public Integer receive() throws InterruptedException {
            return ch.receive();
        }

        @Override
        public Integer selectOne() throws InterruptedException {
            return dev.weft.channels.Select.select(ch.receiveClause());
        }

        @Override
        public Integer selectWithCancel() throws InterruptedException {
            return dev.weft.channels.Select.select(ch.receiveClause(), cancel.receiveClause());
        }
    }
}
