package dev.weft.bench;

import com.softwaremill.jox.Channel;
import com.softwaremill.jox.Select;

/**
 * jox's {@link Chan} and {@link SelectChan} adapters. This class is compiled against the jox 1.0.1
 * dependency and loaded twice: as usual (impl {@code jox}), and by {@link Jox111}'s class loader,
 * where its references to {@code com.softwaremill.jox} resolve to jox 1.1.1 (impl {@code jox111}).
 * jox checks the binary compatibility of its public API between releases, so the same bytecode
 * drives both versions through the same calls. It may use only public types of this package: in
 * the other class loader it lives in another runtime package.
 */
public final class JoxAdapters implements JoxFactory {

    /** The adapters of the jox version on the class path (1.0.1). */
    static final JoxAdapters DEPENDENCY = new JoxAdapters();

    /** For {@link Jox111}, by reflection. */
    public JoxAdapters() {
    }

    @Override
    public Chan chan(int capacity) {
        return new JoxChan(capacity == 0 ? Channel.newRendezvousChannel() : Channel.newBufferedChannel(capacity));
    }

    @Override
    public SelectChan select() {
        return new JoxSelect();
    }

    /** A jox channel as a {@link Chan}. */
    public static final class JoxChan implements Chan {
        final Channel<Integer> ch;

        JoxChan(Channel<Integer> ch) {
            this.ch = ch;
        }

        @Override
        public void send(Integer value) throws InterruptedException {
            ch.send(value);
        }

        @Override
        public Integer receive() throws InterruptedException {
            return ch.receive();
        }
    }

    /** A rendezvous jox channel and an empty "cancellation" channel, for select. */
    public static final class JoxSelect implements SelectChan {
        final Channel<Integer> ch = Channel.newRendezvousChannel();
        final Channel<Integer> cancel = Channel.newRendezvousChannel();

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
            return Select.select(ch.receiveClause());
        }

        @Override
        public Integer selectWithCancel() throws InterruptedException {
            return Select.select(ch.receiveClause(), cancel.receiveClause());
        }
    }
}
