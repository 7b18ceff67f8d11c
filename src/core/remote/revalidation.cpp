#include "core/remote/revalidation.hpp"

namespace ashare::remote {

Reply get_revalidated(Upstream& upstream,
                      store::CacheStore& cache,
                      const std::string& base_url,
                      const std::string& target) {
  const auto kept = cache.find_tagged_answer(base_url, target);
  if (!kept) {
    auto reply = upstream.get(target);
    if (reply.status == 200 && !reply.etag.empty()) {
      cache.save_tagged_answer(base_url, target, {reply.etag, reply.body});
    }
    return reply;
  }
  auto reply = upstream.get_if_none_match(target, kept->etag);
  if (reply.status == 304) {
    return Reply{200, kept->body, kept->etag};
  }
  if (reply.status == 200 && !reply.etag.empty() && reply.etag != kept->etag) {
    cache.save_tagged_answer(base_url, target, {reply.etag, reply.body});
  }
  return reply;
}

} // namespace ashare::remote
