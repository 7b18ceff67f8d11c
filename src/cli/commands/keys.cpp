// ashare keys create|list|revoke|credit: manage API keys. The plaintext of a key is printed once,
// at creation, as the last line of stdout (D5); the store holds only its SHA-256 digest.
#include "cli/commands/command.hpp"
#include "cli/output/formats.hpp"
#include "core/auth/api_key.hpp"
#include "core/auth/plan.hpp"
#include "core/store/key_store.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
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

  return [action](const Config& config) { return (*action)(config); };
}

} // namespace ashare::cli
