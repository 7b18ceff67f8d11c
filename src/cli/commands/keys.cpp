// ashare keys create|list|revoke|credit: manage API keys. The plaintext of a key is printed once,
// at creation, as the last line of stdout (D5); the store holds only its SHA-256 digest.
#include "cli/commands/command.hpp"
#include "cli/output/formats.hpp"
#include "core/auth/api_key.hpp"
#include "core/auth/plan.hpp"
#include "core/store/key_store.hpp"
#include "core/store/locator.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <ctime>
#include <limits>
#include <iostream>
#include <memory>

namespace ashare::cli {
namespace {

struct KeysArgs {
  std::string plan;
  std::optional<std::int64_t> credits;
  std::string label;
  std::string key_or_id;
  std::int64_t amount = 0;
  std::optional<std::string> from; // keys copy: default the configured key store
  std::string to;
};

std::string now_utc() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// Resolve KEY_OR_ID: digits are an id, anything else is a key's plaintext.
std::optional<store::KeyRecord> find_key(store::KeyStore& keys, const std::string& key_or_id) {
  if (!key_or_id.empty() && key_or_id.find_first_not_of("0123456789") == std::string::npos
      && key_or_id.size() < 19) {
    return keys.find_by_id(std::stoll(key_or_id));
  }
  return keys.find_by_digest(auth::key_digest(key_or_id));
}

int no_such_key(const std::string& key_or_id) {
  return fail("no key \"" + key_or_id
              + "\": give a key id (see `ashare keys list`) or the whole key");
}

int create(const KeysArgs& args, const Config& config) {
  auto plan = auth::parse_plan(args.plan);
  if (!plan) {
    return fail(plan.error().message, k_exit_usage);
  }
  const auto store = store::open_key_store(config.keys_db.string());
  auto& keys = *store;
  auth::SystemRandom random;
  const auto key = auth::generate_key(random);
  const auto id = keys.insert_key(store::NewKeyRecord{key.prefix, auth::key_digest(key.plaintext),
                                                      args.label, *plan, args.credits, now_utc()});
  std::cout << "id: " << id << "\n"
            << "plan: " << auth::plan_limits(*plan).name << "\n"
            << "credits: " << (args.credits ? std::to_string(*args.credits) : "unmetered") << "\n"
            << "# the key is shown only this once; store it now\n"
            << key.plaintext << "\n";
  return k_exit_ok;
}

int list(const Config& config) {
  const auto store = store::open_key_store(config.keys_db.string());
  auto& keys = *store;
  std::vector<std::vector<std::string>> rows;
  for (const auto& key : keys.load_keys()) {
    rows.push_back({std::to_string(key.id), key.prefix, key.label,
                    std::string(auth::plan_limits(key.plan).name),
                    key.credits ? std::to_string(*key.credits) : "unmetered", key.created_at,
                    key.revoked_at.value_or("-")});
  }
  print_table(std::cout,
              {{"ID", Align::right},
               {"PREFIX"},
               {"LABEL"},
               {"PLAN"},
               {"CREDITS", Align::right},
               {"CREATED"},
               {"REVOKED"}},
              rows);
  return k_exit_ok;
}

int revoke(const KeysArgs& args, const Config& config) {
  const auto store = store::open_key_store(config.keys_db.string());
  auto& keys = *store;
  const auto key = find_key(keys, args.key_or_id);
  if (!key) {
    return no_such_key(args.key_or_id);
  }
  if (!keys.revoke(key->id, now_utc())) {
    std::cout << "key " << key->id << " was already revoked at " << key->revoked_at.value_or("")
              << "\n";
    return k_exit_ok;
  }
  std::cout << "revoked key " << key->id << " (" << key->prefix << ")\n";
  return k_exit_ok;
}

int credit(const KeysArgs& args, const Config& config) {
  const auto store = store::open_key_store(config.keys_db.string());
  auto& keys = *store;
  const auto key = find_key(keys, args.key_or_id);
  if (!key) {
    return no_such_key(args.key_or_id);
  }
  const auto balance = keys.add_credits(key->id, args.amount);
  if (!balance) {
    return fail("key " + std::to_string(key->id)
                + " is unmetered: it needs no credits (create a metered key with --credits N)");
  }
  std::cout << "key " << key->id << ": " << *balance << " credits\n";
  return k_exit_ok;
}

int copy(const KeysArgs& args, const Config& config) {
  const std::string from = args.from.value_or(config.keys_db.string());
  const std::string shown_from = store::redacted_locator(from), shown_to = store::redacted_locator(args.to);
  if (from == args.to) {
    return fail("--from and --to are the same key store (" + shown_to + ")", k_exit_usage);
  }
  // Opening a file that does not exist would create an empty store and copy nothing from it.
  if (!store::is_postgres_locator(from) && !std::filesystem::exists(from)) {
    return fail("no key store at " + shown_from);
  }
  const auto source = store::open_key_store(from);
  const auto destination = store::open_key_store(args.to);
  const auto copied = store::copy_keys(*source, *destination);
  if (!copied) {
    return fail(copied.error().message);
  }
  std::cout << "copied " << copied->keys << (copied->keys == 1 ? " key" : " keys") << " ("
            << copied->metered << " metered, " << copied->revoked << " revoked) from "
            << shown_from << " to " << shown_to << "\n";
  return k_exit_ok;
}

} // namespace

Action setup_keys(CLI::App& command, GlobalFlags&) {
  auto args = std::make_shared<KeysArgs>();
  command.require_subcommand(1);
  auto action = std::make_shared<Action>();

  auto* create_cmd = command.add_subcommand("create", "Create a key and print it once");
  create_cmd->add_option("--plan", args->plan, "Plan of the key")
    ->required()
    ->check(CLI::IsMember({"free", "basic", "pro"}, CLI::ignore_case));
  create_cmd->add_option("--credits", args->credits, "Credit balance; without it, the key is unmetered")
    ->check(CLI::Range(std::int64_t{0}, std::numeric_limits<std::int64_t>::max() / 2))
    ->type_name("N");
  create_cmd->add_option("--label", args->label, "Free text to recognise the key by")
    ->type_name("TEXT");
  create_cmd->callback([=] { *action = [=](const Config& c) { return create(*args, c); }; });

  auto* list_cmd = command.add_subcommand("list", "List keys (never their plaintext)");
  list_cmd->callback([=] { *action = [](const Config& c) { return list(c); }; });

  auto* revoke_cmd = command.add_subcommand("revoke", "Revoke a key");
  revoke_cmd->add_option("KEY_OR_ID", args->key_or_id, "Key id or the key itself")->required();
  revoke_cmd->callback([=] { *action = [=](const Config& c) { return revoke(*args, c); }; });

  auto* credit_cmd = command.add_subcommand("credit", "Add credits to a metered key");
  credit_cmd->add_option("KEY_OR_ID", args->key_or_id, "Key id or the key itself")->required();
  credit_cmd->add_option("N", args->amount, "Credits to add")
    ->required()
    ->check(CLI::Range(std::int64_t{1}, std::numeric_limits<std::int64_t>::max() / 2));
  credit_cmd->callback([=] { *action = [=](const Config& c) { return credit(*args, c); }; });

  auto* copy_cmd = command.add_subcommand(
    "copy", "Copy every key, with its id and balance, into an empty key store (e.g. PostgreSQL)");
  copy_cmd->add_option("--from", args->from, "Key store to copy (default: --keys-db)")
    ->type_name("PATH|URI");
  copy_cmd->add_option("--to", args->to, "Empty key store to copy into: a file or postgresql:// URI")
    ->required()
    ->type_name("PATH|URI");
  copy_cmd->callback([=] { *action = [=](const Config& c) { return copy(*args, c); }; });

  return [action](const Config& config) { return (*action)(config); };
}

} // namespace ashare::cli
