package dev.weft.bench.kt

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.selects.select

/**
 * The kotlinx.coroutines side of every scenario: the same shapes as `dev.weft.bench.Scenarios`,
 * with a coroutine on [Dispatchers.Default] wherever the Java side starts a virtual thread.
 * Each function is one JMH invocation: it blocks (runBlocking) until every coroutine is done.
 */
object KotlinScenarios {
    private const val VALUE = 63

    private suspend fun sendN(ch: Channel<Int>, n: Int) {
        for (i in 0 until n) ch.send(VALUE)
    }

    private suspend fun receiveN(ch: Channel<Int>, n: Int) {
        for (i in 0 until n) ch.receive()
    }

    @JvmStatic
    fun pair(capacity: Int, n: Int) = runBlocking {
        val ch = Channel<Int>(capacity)
        launch(Dispatchers.Default) { sendN(ch, n) }
        launch(Dispatchers.Default) { receiveN(ch, n) }
        Unit
    }

    /** A channel for [sendBlocking] and [receiveBlocking]. */
    @JvmStatic
    fun newChannel(capacity: Int): Channel<Int> = Channel(capacity)

    /**
     * Sends [n] values into [ch] with `trySend` and then receives them with `tryReceive`, on the
     * calling thread; never suspends (the caller makes sure the buffer has room for [n]).
     */
    @JvmStatic
    fun trySendThenTryReceive(ch: Channel<Int>, n: Int): Int {
        for (i in 0 until n) check(ch.trySend(VALUE).isSuccess) { "no room for a value" }
        var sum = 0
        for (i in 0 until n) sum += ch.tryReceive().getOrThrow()
        return sum
    }

    /** Sends [n] values from the calling (platform) thread, parked while the send is suspended. */
    @JvmStatic
    fun sendBlocking(ch: Channel<Int>, n: Int) = runBlocking { sendN(ch, n) }

    /** Receives [n] values on the calling (platform) thread, parked while the receive is suspended. */
    @JvmStatic
    fun receiveBlocking(ch: Channel<Int>, n: Int) = runBlocking { receiveN(ch, n) }

    @JvmStatic
    fun select(clauses: Int, n: Int) = runBlocking {
        val ch = Channel<Int>(Channel.RENDEZVOUS)
        val cancel = Channel<Int>(Channel.RENDEZVOUS)
        launch(Dispatchers.Default) { sendN(ch, n) }
        if (clauses == 1) {
            launch(Dispatchers.Default) {
                for (i in 0 until n) select { ch.onReceive { it } }
            }
        } else {
            launch(Dispatchers.Default) {
                for (i in 0 until n) select {
                    ch.onReceive { it }
                    cancel.onReceive { it }
                }
            }
        }
        Unit
    }

    @JvmStatic
    fun chain(capacity: Int, channelCount: Int, n: Int) = runBlocking {
        val channels = Array(channelCount) { Channel<Int>(capacity) }
        launch(Dispatchers.Default) { sendN(channels[0], n) }
        for (t in 1 until channelCount) {
            val input = channels[t - 1]
            val output = channels[t]
            launch(Dispatchers.Default) {
                for (i in 0 until n) output.send(input.receive())
            }
        }
        launch(Dispatchers.Default) { receiveN(channels[channelCount - 1], n) }
        Unit
    }

    @JvmStatic
    fun parallel(capacity: Int, pairs: Int, n: Int) = runBlocking {
        for (p in 0 until pairs) {
            val ch = Channel<Int>(capacity)
            launch(Dispatchers.Default) { sendN(ch, n) }
            launch(Dispatchers.Default) { receiveN(ch, n) }
        }
        Unit
    }

    @JvmStatic
    fun contention(capacity: Int, producers: Int, consumers: Int, total: Int) = runBlocking {
        val ch = Channel<Int>(capacity)
        val perProducer = total / producers
        val perConsumer = total / consumers
        for (p in 0 until producers) launch(Dispatchers.Default) { sendN(ch, perProducer) }
        for (c in 0 until consumers) launch(Dispatchers.Default) { receiveN(ch, perConsumer) }
        Unit
    }
}
