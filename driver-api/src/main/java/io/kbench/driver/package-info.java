/**
 * The small SPI a messaging-system driver implements so kbench's workers can load it.
 *
 * <p>A driver is dumb on purpose: it creates topics, sends and receives. Everything that is measured —
 * the intended send time, the moments of send, ack and receipt, the histograms — belongs to the
 * framework around it. A driver is found with {@link java.util.ServiceLoader} through
 * {@link io.kbench.driver.DriverFactory}.
 *
 * <p>The per-message methods ({@link io.kbench.driver.ProducerHandle#send},
 * {@link io.kbench.driver.ProducerListener}, {@link io.kbench.driver.RecordListener}) are on the hot
 * path: implementations add no allocation of their own beyond what the client library needs, no logging
 * and no locks there.
 */
package io.kbench.driver;
