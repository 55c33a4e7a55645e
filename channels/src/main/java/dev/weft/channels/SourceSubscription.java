package dev.weft.channels;

import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The subscription of {@link SourcePublisher}: a virtual thread that signals the subscriber, all
 * signals from that one thread (so they are serial, rule 1.3). It receives from the source only
 * while there is outstanding demand, with a select over the source and a private cancellation
 * channel, so that a cancel wakes a waiting receive without interrupting anybody, and a value is
 * never received without being passed on: a receive that completed as the cancel came is still
 * delivered with {@code onNext} (rule 1.8 allows signals shortly after a cancel).
 */
final class SourceSubscription<T> implements Flow.Subscription, Runnable {
    private final Source<T> source;
    private final Thread thread;

    /** Closed (done) by {@link #cancel()} and by an invalid request, to wake the select. */
    private final Channel<Object> cancelSignal = Channel.newRendezvousChannel();

    /** Outstanding demand; {@code Long.MAX_VALUE} is unbounded (rule 3.17). */
    private final AtomicLong demand = new AtomicLong();

    private volatile Flow.Subscriber<? super T> subscriber;
    private volatile boolean cancelled;

    /** The n of a request with n &lt;= 0 (rule 3.9), signalled by the pump; 1 while none. */
    private volatile long invalidRequest = 1L;

    SourceSubscription(Source<T> source, Flow.Subscriber<? super T> subscriber) {
        this.source = source;
        this.subscriber = subscriber;
        this.thread = Thread.ofVirtual().name("weft-publisher").unstarted(this);
    }

    void start() {
        thread.start();
    }

    /** The thread that signals the subscriber (for tests). */
    Thread thread() {
        return thread;
    }

    @Override
    public void request(long n) {
        if (n <= 0L) {
            invalidRequest = n;
            cancelSignal.doneOrClosed();
            LockSupport.unpark(thread);
            return;
        }
        long d;
        long next;
        do {
            d = demand.get();
            next = d + n < 0L ? Long.MAX_VALUE : d + n;
        } while (!demand.compareAndSet(d, next));
        if (d == 0L) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void cancel() {
        cancelled = true;
        cancelSignal.doneOrClosed();
        LockSupport.unpark(thread);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void run() {
        Flow.Subscriber<? super T> s = subscriber;
        try {
            s.onSubscribe(this);
            while (true) {
                if (!awaitDemand(s)) {
                    return;
                }
                Object r;
                try {
                    r = Select.selectOrClosed(source.receiveClause(), cancelSignal.receiveClause());
                } catch (InterruptedException e) {
                    // nobody interrupts this thread but its owner's code; nothing was received
                    s.onError(e);
                    return;
                }
                if (r instanceof ChannelClosed c) {
                    if (c == cancelSignal.closedForReceive()) {
                        signalInvalidRequest(s);
                        return;
                    }
                    if (c == source.closedForReceive()) {
                        terminate(s, c);
                        return;
                    }
                }
                if (demand.get() != Long.MAX_VALUE) {
                    demand.decrementAndGet();
                }
                s.onNext((T) r);
            }
        } catch (RuntimeException | Error e) {
            cancel(); // the subscriber broke rule 2.13; stop, and let the thread report it
            throw e;
        } finally {
            subscriber = null; // drop the subscriber (rule 3.13)
        }
    }

    /**
     * Waits for demand without receiving. Returns false when the subscription ended: cancelled,
     * an invalid request (signalled here), or the source turned out closed (signalled here:
     * onComplete and onError need no demand, rule 1.4).
     */
    private boolean awaitDemand(Flow.Subscriber<? super T> s) {
        while (true) {
            if (cancelled) {
                return false;
            }
            Faults.at(Faults.PUBLISHER_NOT_CANCELLED);
            if (invalidRequest <= 0L) {
                signalInvalidRequest(s);
                return false;
            }
            if (demand.get() > 0L) {
                // read again: a request made after a cancel (a no-op, rule 3.6) may be what this
                // thread saw, and then it sees that cancel too (it came first in that caller)
                return !cancelled;
            }
            ChannelClosed c = source.closedForReceive();
            if (c != null) {
                terminate(s, c);
                return false;
            }
            LockSupport.park(this);
        }
    }

    private void signalInvalidRequest(Flow.Subscriber<? super T> s) {
        long n = invalidRequest;
        if (n <= 0L && !cancelled) {
            cancelled = true;
            s.onError(new IllegalArgumentException("request(" + n + "): n must be positive (rule 3.9)"));
        }
    }

    private void terminate(Flow.Subscriber<? super T> s, ChannelClosed c) {
        cancelled = true;
        if (c instanceof ChannelError e) {
            s.onError(e.cause());
        } else {
            s.onComplete();
        }
    }

    @Override
    public String toString() {
        return "publisher subscription on " + source;
    }
}
