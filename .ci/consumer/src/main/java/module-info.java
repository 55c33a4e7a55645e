/** A stand-alone user of weft, built against the installed artifact by .ci/consumer-check.sh. */
module dev.weft.consumer {
    requires dev.weft.channels;
}
