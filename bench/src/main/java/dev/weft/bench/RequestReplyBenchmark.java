package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * A client and a server virtual thread, talking over two buffered channels (an actor's mailbox and
 * its reply channel): the client sends a request and waits for the reply before it sends the
 * next. Every receive waits for its partner, as in a rendezvous, although the channels have a
 * buffer; so this is the latency of a round trip, where {@link BufferedBenchmark} measures a
 * pipeline's throughput. The score is ns per round trip (two handoffs). A wait policy that parks
 * receivers at once would cost here: this benchmark keeps the spin policy of receivers that wait
 * for every value honest. (weft's pair rule never applies here: the sends never wait, so neither
 * channel counts as a pair; SpinPolicyTest checks that.) kotlinx.coroutines is not driven here.
 */
public class RequestReplyBenchmark extends WeftBenchmark {
    static final int N = 50_000;

    @Param({"16"})
    public int capacity;

    @Param({"weft", "jox", "jox111", "ArrayBlockingQueue", "LinkedBlockingQueue"})
    public String impl;

    @Setup
    public void setup() {
        Chan.create(impl, capacity); // fail early on a bad combination
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void roundTrip() throws Exception {
        Chan requests = Chan.create(impl, capacity);
        Chan replies = Chan.create(impl, capacity);
        VThreads vt = new VThreads(2);
        vt.start(() -> {
            for (int i = 0; i < N; i++) {
                replies.send(requests.receive());
            }
        });
        vt.start(() -> {
            for (int i = 0; i < N; i++) {
                requests.send(Chan.VALUE);
                replies.receive();
            }
        });
        vt.join();
    }
}
