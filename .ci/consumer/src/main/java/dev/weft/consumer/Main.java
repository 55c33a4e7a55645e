package dev.weft.consumer;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelDone;

/**
 * One send/receive between virtual threads through weft, as a new user would write it.
 * Run with {@code module} (weft must be the named module dev.weft.channels) or {@code classpath}
 * (weft must be in the unnamed module); exits with status 1 if anything is off.
 */
public final class Main {
    private Main() {}

    /**
     * Sends a value from one virtual thread and receives it on another.
     *
     * @param args {@code module} or {@code classpath}: how weft is expected to be loaded
     * @throws Exception if the exchange fails
     */
    public static void main(String[] args) throws Exception {
        String mode = args.length == 1 ? args[0] : "";
        Module weft = Channel.class.getModule();
        boolean ok = switch (mode) {
            case "module" -> weft.isNamed() && weft.getName().equals("dev.weft.channels")
                    && Main.class.getModule().getName().equals("dev.weft.consumer");
            case "classpath" -> !weft.isNamed() && !Main.class.getModule().isNamed();
            default -> false;
        };
        if (!ok) {
            System.err.println("consumer: weft loaded as " + weft + " (mode '" + mode + "')");
            System.exit(1);
        }

        Channel<String> ch = Channel.newRendezvousChannel();
        Thread sender = Thread.ofVirtual().start(() -> {
            try {
                ch.send("hello from a virtual thread");
                ch.done();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        String[] got = new String[2];
        Thread receiver = Thread.ofVirtual().start(() -> {
            try {
                got[0] = ch.receive();
                got[1] = String.valueOf(ch.receiveOrClosed() instanceof ChannelDone);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sender.join();
        receiver.join();
        if (!"hello from a virtual thread".equals(got[0]) || !"true".equals(got[1])) {
            System.err.println("consumer: received " + got[0] + ", then done=" + got[1]);
            System.exit(1);
        }
        System.out.println("consumer (" + mode + ", " + weft + "): received '" + got[0] + "'");
    }
}
