package dev.weft.channels;

/** Whether a test's helper threads are virtual or platform threads. */
enum ThreadKind {
    VIRTUAL,
    PLATFORM;

    Thread.Builder builder() {
        return this == VIRTUAL ? Thread.ofVirtual() : Thread.ofPlatform().daemon(true);
    }

    Thread start(Runnable task) {
        return builder().start(task);
    }
}
