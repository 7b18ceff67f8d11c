#include "core/remote/revalidation.hpp"

namespace ashare::remote {

http::Reply get_revalidated(http::Gateway& remote,
                            store::CacheStore& cache,
                            const std::string& base_url,
                            const std::string& target) {
  const auto kept = cache.find_tagged_answer(base_url, target);
  if (!kept) {
    auto reply = get(remote, target);
    if (reply.status == 200 && !reply.etag.empty()) {
      cache.save_tagged_answer(base_url, target, {reply.etag, reply.body});
    }
    return reply;
  }
  auto reply = get(remote, target, kept->etag);
  if (reply.status == 304) {
    return http::Reply{200, kept->body, kept->etag};
  }
  if (reply.status == 200 && !reply.etag.empty() && reply.etag != kept->etag) {
    cache.save_tagged_answer(base_url, target, {reply.etag, reply.body});
  }
  return reply;
}

} // namespace ashare::remote
