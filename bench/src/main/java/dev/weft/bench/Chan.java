package dev.weft.bench;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Exchanger;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.function.IntFunction;

/**
 * The blocking send/receive pair every Java peer is driven through.
 *
 * <p>A JMH fork runs one {@code impl}, so only one implementation of this interface is ever loaded
 * in it: every call site stays monomorphic and the adapter inlines away. Public because jox 1.1.1's
 * adapter implements it from another class loader ({@link Jox111}).
 */
public interface Chan {

    void send(Integer value) throws InterruptedException;

    Integer receive() throws InterruptedException;

    /** The value every benchmark sends (a cached box: sending allocates nothing). */
    Integer VALUE = 63;

    /** Implementation names that are Java {@link Chan}s (kotlin is driven separately). */
    static Chan create(String impl, int capacity) {
        return factory(impl).apply(capacity);
    }

    /**
     * Resolves {@code impl} once: a function that makes a channel of it with a given capacity (no
     * name lookup per channel, for scenarios that create channels inside the measurement).
     * Throws for an unknown name; the function throws for a capacity the implementation lacks.
     */
    static IntFunction<Chan> factory(String impl) {
        return switch (impl) {
            case "weft" -> c -> new WeftChan(new dev.weft.channels.Channel<>(c));
            case "jox", "jox111" -> JoxFactory.forImpl(impl)::chan;
            // "jdk": the JDK's natural counterpart of a channel with this capacity.
            case "jdk" -> c -> c == 0 ? new SynchronousQueueChan() : new ArrayBlockingQueueChan(c);
            case "SynchronousQueue" -> c -> {
                requireCapacity(impl, c, 0);
                return new SynchronousQueueChan();
            };
            case "LinkedTransferQueue" -> c -> {
                requireCapacity(impl, c, 0);
                return new LinkedTransferQueueChan();
            };
            case "Exchanger" -> c -> {
                requireCapacity(impl, c, 0);
                return new ExchangerChan();
            };
            case "ArrayBlockingQueue" -> ArrayBlockingQueueChan::new;
            case "LinkedBlockingQueue" -> LinkedBlockingQueueChan::new;
            default -> throw new IllegalArgumentException("unknown impl: " + impl);
        };
    }

    /** The JDK queue that {@code impl=jdk} stands for, for labels. */
    static String jdkName(int capacity) {
        return capacity == 0 ? "SynchronousQueue" : "ArrayBlockingQueue";
    }

    private static void requireCapacity(String impl, int capacity, int expected) {
        if (capacity != expected) {
            throw new IllegalArgumentException(impl + " needs capacity " + expected + ", got " + capacity);
        }
    }

    final class WeftChan implements Chan {
        final dev.weft.channels.Channel<Integer> ch;

        WeftChan(dev.weft.channels.Channel<Integer> ch) {
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

    final class SynchronousQueueChan implements Chan {
        final SynchronousQueue<Integer> q = new SynchronousQueue<>();

        @Override
        public void send(Integer value) throws InterruptedException {
            q.put(value);
        }

        @Override
        public Integer receive() throws InterruptedException {
            return q.take();
        }
    }

    final class LinkedTransferQueueChan implements Chan {
        final LinkedTransferQueue<Integer> q = new LinkedTransferQueue<>();

        @Override
        public void send(Integer value) throws InterruptedException {
            q.transfer(value);
        }

        @Override
        public Integer receive() throws InterruptedException {
            return q.take();
        }
    }

    /** One sender and one receiver only: two senders would exchange with each other. */
    final class ExchangerChan implements Chan {
        final Exchanger<Integer> x = new Exchanger<>();

        @Override
        public void send(Integer value) throws InterruptedException {
            x.exchange(value);
        }

        @Override
        public Integer receive() throws InterruptedException {
            return x.exchange(null);
        }
    }

    final class ArrayBlockingQueueChan implements Chan {
        final ArrayBlockingQueue<Integer> q;

        ArrayBlockingQueueChan(int capacity) {
            q = new ArrayBlockingQueue<>(capacity);
        }

        @Override
        public void send(Integer value) throws InterruptedException {
            q.put(value);
        }

        @Override
        public Integer receive() throws InterruptedException {
            return q.take();
        }
    }

    final class LinkedBlockingQueueChan implements Chan {
        final LinkedBlockingQueue<Integer> q;

        LinkedBlockingQueueChan(int capacity) {
            q = new LinkedBlockingQueue<>(capacity);
        }

        @Override
        public void send(Integer value) throws InterruptedException {
            q.put(value);
        }

        @Override
        public Integer receive() throws InterruptedException {
            return q.take();
        }
    }
}
