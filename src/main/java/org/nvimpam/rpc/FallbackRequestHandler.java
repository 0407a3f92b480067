package org.nvimpam.rpc;

import org.msgpack.core.MessageUnpacker;

/** Answers requests by any method name; see {@link RpcConnection#onOtherRequest}. */
@FunctionalInterface
public interface FallbackRequestHandler {
  Encoder handle(String method, MessageUnpacker params) throws Exception;
}
